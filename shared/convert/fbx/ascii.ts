/**
 * ASCII FBX (6.1 and 7.x): `Name: value, value {` ... `}` records, `;` comments, quoted strings,
 * numbers and bare words; 7.x arrays as `Key: *N { a: v,v,v }`, 6.1 arrays as long value lists whose
 * continuation lines start with a comma. Errors name the line.
 */
import { fail } from '../../errors';
import { fbxBudget, recordCounter, type FbxArray, type FbxDocument, type FbxNode, type FbxValue } from './node';

const MAX_DEPTH = 64;

export function isAsciiFbx(bytes: Uint8Array): boolean {
  // "; FBX 7.4.0 project file" or records right away; skip a UTF-8 BOM and blank space.
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0d || bytes[i] === 0x0a)) i++;
  const head = new TextDecoder('latin1').decode(bytes.subarray(i, i + 64));
  return /^;\s*FBX\s+\d/.test(head) || /^FBXHeaderExtension\s*:/.test(head);
}

interface Token {
  /** 'key' (word followed by ':'), 'str', 'num', 'word', '{', '}', ',', 'count' (*N), 'eof' */
  readonly t: string;
  readonly v?: string;
  readonly line: number;
}

class Lexer {
  private i = 0;
  line = 1;
  private peeked: Token | undefined;
  constructor(private readonly s: string) {}

  peek(): Token {
    return (this.peeked ??= this.scan());
  }
  next(): Token {
    const t = this.peek();
    this.peeked = undefined;
    return t;
  }

  private scan(): Token {
    const s = this.s;
    for (;;) {
      while (this.i < s.length) {
        const c = s.charCodeAt(this.i);
        if (c === 10) this.line++;
        if (c === 10 || c === 13 || c === 32 || c === 9) this.i++;
        else break;
      }
      if (this.i >= s.length) return { t: 'eof', line: this.line };
      if (s[this.i] === ';') {
        const nl = s.indexOf('\n', this.i);
        this.i = nl < 0 ? s.length : nl;
        continue;
      }
      break;
    }
    const line = this.line;
    const c = s[this.i];
    if (c === '{' || c === '}' || c === ',') {
      this.i++;
      return { t: c, line };
    }
    if (c === '"') {
      const end = s.indexOf('"', this.i + 1);
      if (end < 0) fail('TRUNCATED', 'fbxAscii.string', { line });
      const v = s.slice(this.i + 1, end).replace(/&quot;/g, '"');
      for (let k = this.i; k < end; k++) if (s.charCodeAt(k) === 10) this.line++;
      this.i = end + 1;
      return { t: 'str', v, line };
    }
    if (c === '*') {
      const m = /^\*(\d+)/.exec(s.slice(this.i, this.i + 24));
      if (!m) fail('BAD_FBX', 'fbxAscii.arrayLength', { line });
      this.i += m[0].length;
      return { t: 'count', v: m[1], line };
    }
    let j = this.i;
    while (j < s.length) {
      const d = s.charCodeAt(j);
      // Stop at space, separators, quotes and ':'.
      if (d === 32 || d === 9 || d === 10 || d === 13 || d === 44 || d === 123 || d === 125 || d === 34 || d === 58 || d === 59) break;
      j++;
    }
    if (j === this.i) {
      if (s[j] === ':') fail('BAD_FBX', 'fbxAscii.noName', { line });
      fail('BAD_FBX', 'fbxAscii.unexpected', { line, text: s[j] });
    }
    const word = s.slice(this.i, j);
    this.i = j;
    if (s[j] === ':') {
      this.i = j + 1;
      return { t: 'key', v: word, line };
    }
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(word) || /^[-+]?(inf|nan|1\.#INF|1\.#IND)/i.test(word)) return { t: 'num', v: word, line };
    return { t: 'word', v: word, line };
  }
}

function numberValue(text: string): number | bigint {
  if (/^[-+]?\d+$/.test(text)) {
    const n = Number(text);
    if (Number.isSafeInteger(n)) return n;
    return BigInt(text);
  }
  const n = Number(text);
  if (Number.isFinite(n)) return n;
  if (/nan|ind/i.test(text)) return NaN;
  return text.startsWith('-') ? -Infinity : Infinity;
}

function asArray(values: readonly FbxValue[]): FbxArray {
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    out[i] = typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : typeof v === 'boolean' ? Number(v) : NaN;
  }
  return { kind: 'array', length: out.length, values: () => out };
}

export function parseAsciiFbx(bytes: Uint8Array): FbxDocument {
  const text = new TextDecoder('utf-8').decode(bytes);
  const lx = new Lexer(text);
  const m = /^\s*;\s*FBX\s+(\d+)\.(\d+)\.(\d+)/.exec(text.slice(0, 128));
  let version = m ? Number(m[1]) * 1000 + Number(m[2]) * 100 + Number(m[3]) : 0;
  const countRecord = recordCounter();

  function readNode(name: string, depth: number): FbxNode {
    const props: FbxValue[] = [];
    let count: number | undefined;
    let tok = lx.peek();
    // Values on the record's line (or continued after commas).
    if (tok.t === 'str' || tok.t === 'num' || tok.t === 'word' || tok.t === 'count' || tok.t === ',') {
      for (;;) {
        tok = lx.peek();
        if (tok.t === ',') {
          lx.next();
          continue;
        }
        if (tok.t === 'str') props.push(lx.next().v!);
        else if (tok.t === 'num') props.push(numberValue(lx.next().v!));
        else if (tok.t === 'word') {
          const w = lx.next().v!;
          props.push(w === 'T' || w === 'Y' ? true : w === 'F' || w === 'N' ? false : w);
        } else if (tok.t === 'count') count = Number(lx.next().v!);
        else break;
        if (lx.peek().t !== ',') break;
      }
    }
    let children: FbxNode[] = [];
    if (lx.peek().t === '{') {
      lx.next();
      children = readList(depth + 1, true);
    }
    if (count !== undefined) {
      const a = children.find((c) => c.name === 'a');
      const arr = asArray(a ? a.props : []);
      if (arr.length !== count) fail('BAD_FBX', 'fbxAscii.arrayCount', { record: name, count, found: arr.length });
      return { name, props: [arr], children: [] };
    }
    return { name, props, children };
  }

  function readList(depth: number, braced: boolean): FbxNode[] {
    if (depth > MAX_DEPTH) fail('BAD_FBX', 'fbxAscii.depth', { line: lx.line, max: MAX_DEPTH });
    const nodes: FbxNode[] = [];
    for (;;) {
      const tok = lx.next();
      if (tok.t === 'eof') {
        if (braced) fail('TRUNCATED', 'fbxAscii.endsInRecord');
        return nodes;
      }
      if (tok.t === '}') {
        if (!braced) fail('BAD_FBX', 'fbxAscii.closeWithout', { line: tok.line });
        return nodes;
      }
      if (tok.t !== 'key') fail('BAD_FBX', 'fbxAscii.nameExpected', { line: tok.line, text: tok.v !== undefined ? tok.v.slice(0, 40) : tok.t });
      countRecord(`line ${tok.line}`);
      nodes.push(readNode(tok.v!, depth));
    }
  }

  const nodes = readList(0, false);
  if (!version) {
    const header = nodes.find((n) => n.name === 'FBXHeaderExtension');
    const v = header?.children.find((c) => c.name === 'FBXVersion')?.props[0];
    version = typeof v === 'number' ? v : 0;
  }
  return { version, binary: false, nodes, budget: fbxBudget(bytes.length) };
}
