/**
 * Binary FBX (6100-7700: the record layout is the same since 6.x): a 27-byte header ("Kaydara FBX Binary  \0", 0x1A 0x00, uint32 version), then
 * node records: end offset, property count, property bytes (uint32 each, uint64 from 7500), a name,
 * the properties, nested records and a NUL record closing the list. Array properties are raw or
 * zlib-deflated (encoding 1); they are decoded on first use, and a decoded size is accepted only if
 * deflate could produce it from the stored bytes and the file's total stays within a budget set by
 * the file's size.
 */
import { unzlibSync } from 'fflate';
import { fail } from '../../errors';
import { spendBudget, type ReadBudget } from '../../readBudget';
import { fbxBudget, recordCounter, type FbxArray, type FbxDocument, type FbxNode, type FbxValue } from './node';

const MAGIC = 'Kaydara FBX Binary  \0';
/** Deflate's best ratio is about 1032:1; anything claiming more is a lie. */
const MAX_DEFLATE_RATIO = 1032;
/** Records nest this deep at most (real files: under 10). */
const MAX_DEPTH = 64;

export function isBinaryFbx(bytes: Uint8Array): boolean {
  if (bytes.length < MAGIC.length) return false;
  for (let i = 0; i < MAGIC.length; i++) if (bytes[i] !== MAGIC.charCodeAt(i)) return false;
  return true;
}

const ELEMENT_SIZE: Readonly<Record<string, number>> = { f: 4, d: 8, i: 4, l: 8, b: 1 };

function decodeElements(type: string, raw: Uint8Array, count: number): Float64Array {
  const dv = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
  const out = new Float64Array(count);
  switch (type) {
    case 'f':
      for (let i = 0; i < count; i++) out[i] = dv.getFloat32(i * 4, true);
      break;
    case 'd':
      for (let i = 0; i < count; i++) out[i] = dv.getFloat64(i * 8, true);
      break;
    case 'i':
      for (let i = 0; i < count; i++) out[i] = dv.getInt32(i * 4, true);
      break;
    case 'l':
      for (let i = 0; i < count; i++) out[i] = Number(dv.getBigInt64(i * 8, true));
      break;
    default:
      for (let i = 0; i < count; i++) out[i] = raw[i] ? 1 : 0;
      break;
  }
  return out;
}

function lazyArray(type: string, count: number, encoding: number, stored: Uint8Array, at: number, budget: ReadBudget): FbxArray {
  let cache: Float64Array | undefined;
  const size = ELEMENT_SIZE[type];
  return {
    kind: 'array',
    length: count,
    values() {
      if (cache) return cache;
      const need = count * size;
      let raw: Uint8Array;
      if (encoding === 0) {
        if (stored.length !== need) fail('BAD_FBX', 'fbx.arraySize', { offset: at, count, need, stored: stored.length });
        raw = stored;
      } else {
        if (need > stored.length * MAX_DEFLATE_RATIO + 64) fail('BAD_FBX', 'fbx.arrayRatio', { offset: at, count, stored: stored.length });
        spendBudget(budget, need / 8, `array at byte ${at}`);
        const out = new Uint8Array(need);
        let got: Uint8Array;
        try {
          got = unzlibSync(stored, { out });
        } catch {
          fail('BAD_FBX', 'fbx.inflate', { offset: at });
        }
        if (got.length !== need) fail('BAD_FBX', 'fbx.inflatedSize', { offset: at, got: got.length, need });
        raw = out;
      }
      spendBudget(budget, count, `array at byte ${at}`);
      cache = decodeElements(type, raw, count);
      return cache;
    },
  };
}

/** Short ASCII strings (record and object names: most of a file's strings) without a TextDecoder call. */
function shortString(data: Uint8Array): string | undefined {
  if (data.length > 64) return undefined;
  let s = '';
  for (let i = 0; i < data.length; i++) {
    const c = data[i];
    if (c >= 0x80) return undefined;
    s += String.fromCharCode(c);
  }
  return s;
}

/** What the property reader needs of the file being parsed. */
interface PropertySource {
  readonly bytes: Uint8Array;
  readonly dv: DataView;
  readonly utf8: TextDecoder;
  readonly budget: ReadBudget;
}

/** The `count` properties of the record at `at`, stored in bytes [start, end). */
function readProps({ bytes, dv, utf8, budget }: PropertySource, start: number, end: number, count: number, at: number): FbxValue[] {
  const props: FbxValue[] = [];
  let p = start;
  const need = (n: number) => {
    if (p + n > end) fail('TRUNCATED', 'fbx.propertyPastRecord', { offset: at, property: props.length });
  };
  for (let k = 0; k < count; k++) {
    need(1);
    const type = String.fromCharCode(bytes[p++]);
    switch (type) {
      case 'Y':
        need(2);
        props.push(dv.getInt16(p, true));
        p += 2;
        break;
      // A bool (0/1, or 'T'/'Y'/'F'/'N'), except in FBX 6.x key lists, where it is a mode letter ('L', 'C', 'U', 's', 'n' ...).
      case 'C': {
        need(1);
        const b = bytes[p];
        props.push(b === 0 || b === 0x46 || b === 0x4e ? false : b === 1 || b === 0x54 || b === 0x59 ? true : String.fromCharCode(b));
        p += 1;
        break;
      }
      case 'I':
        need(4);
        props.push(dv.getInt32(p, true));
        p += 4;
        break;
      case 'F':
        need(4);
        props.push(dv.getFloat32(p, true));
        p += 4;
        break;
      case 'D':
        need(8);
        props.push(dv.getFloat64(p, true));
        p += 8;
        break;
      case 'L': {
        need(8);
        const v = dv.getBigInt64(p, true);
        props.push(v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v);
        p += 8;
        break;
      }
      case 'S':
      case 'R': {
        need(4);
        const len = dv.getUint32(p, true);
        p += 4;
        need(len);
        const data = bytes.subarray(p, p + len);
        p += len;
        if (type === 'R') props.push(data);
        else props.push(shortString(data) ?? utf8.decode(data));
        break;
      }
      case 'f':
      case 'd':
      case 'i':
      case 'l':
      case 'b': {
        need(12);
        const count2 = dv.getUint32(p, true);
        const encoding = dv.getUint32(p + 4, true);
        const stored = dv.getUint32(p + 8, true);
        p += 12;
        need(stored);
        if (encoding !== 0 && encoding !== 1) fail('BAD_FBX', 'fbx.arrayEncoding', { offset: p - 12, encoding });
        props.push(lazyArray(type, count2, encoding, bytes.subarray(p, p + stored), p - 12, budget));
        p += stored;
        break;
      }
      default:
        fail('BAD_FBX', 'fbx.propertyType', { offset: at, code: type.charCodeAt(0) });
    }
  }
  return props;
}

export function parseBinaryFbx(bytes: Uint8Array): FbxDocument {
  if (!isBinaryFbx(bytes)) fail('BAD_FBX', 'fbx.signature');
  if (bytes.length < 27) fail('TRUNCATED', 'fbx.tooShort', { bytes: bytes.length });
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(23, true);
  if (version < 6000 || version >= 8000) fail('UNSUPPORTED', 'fbx.version', { version: String(version) });
  const wide = version >= 7500;
  const headerSize = wide ? 25 : 13;
  const budget = fbxBudget(bytes.length);
  const latin = new TextDecoder('latin1');
  const utf8 = new TextDecoder('utf-8');

  const u = (at: number): number => (wide ? Number(dv.getBigUint64(at, true)) : dv.getUint32(at, true));

  const source: PropertySource = { bytes, dv, utf8, budget };
  const countRecord = recordCounter();
  function readList(start: number, end: number, depth: number): FbxNode[] {
    if (depth > MAX_DEPTH) fail('BAD_FBX', 'fbx.depth', { max: MAX_DEPTH, offset: start });
    const nodes: FbxNode[] = [];
    let p = start;
    while (p < end) {
      if (p + headerSize > end) {
        // The top level may end with a footer shorter than a record header.
        if (depth === 0) break;
        fail('TRUNCATED', 'fbx.recordPastParent', { offset: p });
      }
      const recordEnd = u(p);
      const propCount = u(p + (wide ? 8 : 4));
      const propBytes = u(p + (wide ? 16 : 8));
      const nameLen = bytes[p + (wide ? 24 : 12)];
      if (recordEnd === 0) {
        // NUL record: end of this list (the top level ends with one before the footer).
        if (depth === 0) break;
        p += headerSize;
        continue;
      }
      const at = p;
      countRecord(`byte ${at}`);
      if (recordEnd <= p || recordEnd > end) fail('TRUNCATED', 'fbx.recordEnd', { offset: at, end: recordEnd, parentEnd: end });
      const nameStart = p + headerSize;
      const propStart = nameStart + nameLen;
      const propEnd = propStart + propBytes;
      if (propEnd > recordEnd) fail('TRUNCATED', 'fbx.propertiesPastRecord', { offset: at });
      if (propCount > propBytes) fail('BAD_FBX', 'fbx.propertyCount', { offset: at, count: propCount, bytes: propBytes });
      const name = shortString(bytes.subarray(nameStart, propStart)) ?? latin.decode(bytes.subarray(nameStart, propStart));
      const props = readProps(source, propStart, propEnd, propCount, at);
      const children = propEnd < recordEnd ? readList(propEnd, recordEnd, depth + 1) : [];
      nodes.push({ name, props, children });
      p = recordEnd;
    }
    return nodes;
  }

  return { version, binary: true, nodes: readList(27, bytes.length, 0), budget };
}
