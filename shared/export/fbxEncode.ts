/**
 * Binary FBX encoding (the Kaydara container: node records with typed properties, arrays raw or
 * zlib-deflated), version 7400 or 6100 with 32-bit record offsets, or 7500 with 64-bit ones. The FBX
 * exporter lays its scene out as these nodes; the tests write their odd inputs with it too.
 */
import { zlibSync } from 'fflate';
import { joinBytes } from '../bytes';

export type Prop =
  | { t: 'I'; v: number }
  | { t: 'D'; v: number }
  | { t: 'L'; v: number }
  | { t: 'S'; v: string }
  | { t: 'C'; v: boolean }
  | { t: 'd' | 'f' | 'i' | 'l'; v: ArrayLike<number> }
  /** An array property already encoded by encodedArray (one encoding shared by many nodes). */
  | { t: 'encoded'; code: 'd' | 'f' | 'i' | 'l'; count: number; data: Uint8Array; deflated: boolean }
  /** A one-letter mode mark of FBX 6.x key lists: a 'C' byte in binary, a bare word in ASCII. */
  | { t: 'c'; v: string };
export interface Node {
  name: string;
  props: Prop[];
  children: Node[];
}

/** Builders of the scene's nodes: typed properties, a node, and a Properties70 entry. */
export const I = (v: number): Prop => ({ t: 'I', v });
export const D = (v: number): Prop => ({ t: 'D', v });
export const L = (v: number): Prop => ({ t: 'L', v });
export const S = (v: string): Prop => ({ t: 'S', v });
export const node = (name: string, props: Prop[] = [], children: Node[] = []): Node => ({ name, props, children });
export const P = (name: string, type: string, label: string, flags: string, ...values: Prop[]): Node => node('P', [S(name), S(type), S(label), S(flags), ...values]);

const ELEMENT: Readonly<Record<string, number>> = { d: 8, f: 4, i: 4, l: 8 };

function encodeProp(p: Prop, deflate: boolean): Uint8Array {
  const enc = new TextEncoder();
  if (p.t === 'S') {
    const s = enc.encode(p.v);
    const out = new Uint8Array(5 + s.length);
    out[0] = 0x53;
    new DataView(out.buffer).setUint32(1, s.length, true);
    out.set(s, 5);
    return out;
  }
  if (p.t === 'c') return Uint8Array.of(0x43, p.v.charCodeAt(0));
  if (p.t === 'I' || p.t === 'D' || p.t === 'L' || p.t === 'C') {
    const size = p.t === 'I' ? 4 : p.t === 'C' ? 1 : 8;
    const out = new Uint8Array(1 + size);
    out[0] = p.t.charCodeAt(0);
    const dv = new DataView(out.buffer);
    if (p.t === 'I') dv.setInt32(1, p.v, true);
    else if (p.t === 'D') dv.setFloat64(1, p.v, true);
    else if (p.t === 'L') dv.setBigInt64(1, BigInt(p.v), true);
    else out[1] = p.v ? 1 : 0;
    return out;
  }
  if (p.t === 'encoded') return arrayRecord(p.code, p.count, p.data, p.deflated);
  const e = encodedArray(p.t, p.v, deflate);
  return arrayRecord(e.code, e.count, e.data, e.deflated);
}

function arrayRecord(code: string, count: number, data: Uint8Array, deflated: boolean): Uint8Array {
  const out = new Uint8Array(13 + data.length);
  out[0] = code.charCodeAt(0);
  const h = new DataView(out.buffer);
  h.setUint32(1, count, true);
  h.setUint32(5, deflated ? 1 : 0, true);
  h.setUint32(9, data.length, true);
  out.set(data, 13);
  return out;
}

/**
 * An array's bytes as an FBX array property holds them (little-endian, zlib-deflated when `deflate`
 * at `level`), to encode a large array once and share it (every curve of a take has the same key times).
 */
export function encodedArray(code: 'd' | 'f' | 'i' | 'l', v: ArrayLike<number>, deflate: boolean, level: 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 = 6): Extract<Prop, { t: 'encoded' }> {
  let raw: Uint8Array;
  if (code === 'f' && v instanceof Float32Array) raw = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  else if (code === 'd' && v instanceof Float64Array) raw = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  else {
    raw = new Uint8Array(v.length * ELEMENT[code]);
    const dv = new DataView(raw.buffer);
    for (let i = 0; i < v.length; i++) {
      if (code === 'd') dv.setFloat64(i * 8, v[i], true);
      else if (code === 'f') dv.setFloat32(i * 4, v[i], true);
      else if (code === 'i') dv.setInt32(i * 4, v[i], true);
      else {
        // 64-bit integers (FBX ticks) below 2^53, written as two 32-bit halves: no BigInt per value.
        const x = Math.round(v[i]);
        const lo = x % 0x100000000;
        dv.setUint32(i * 8, lo < 0 ? lo + 0x100000000 : lo, true);
        dv.setInt32(i * 8 + 4, Math.floor(x / 0x100000000), true);
      }
    }
  }
  return { t: 'encoded', code, count: v.length, data: deflate ? zlibSync(raw, { level }) : raw, deflated: deflate };
}

/** Binary FBX of `nodes`: version 7400 or 6100 (32-bit offsets) or 7500 (64-bit); arrays deflated or raw. */
export function encodeBinaryFbx(nodes: readonly Node[], version: 6100 | 7400 | 7500 = 7400, deflate = true): Uint8Array {
  const wide = version >= 7500;
  const headerSize = wide ? 25 : 13;
  const chunks: Uint8Array[] = [];
  let offset = 27;
  const push = (b: Uint8Array) => {
    chunks.push(b);
    offset += b.length;
  };
  const head = new Uint8Array(27);
  head.set(new TextEncoder().encode('Kaydara FBX Binary  \u0000'), 0);
  head[21] = 0x1a;
  new DataView(head.buffer).setUint32(23, version, true);
  chunks.push(head);
  const writeNode = (node: Node) => {
    const props = node.props.map((p) => encodeProp(p, deflate));
    const propBytes = props.reduce((s, p) => s + p.length, 0);
    const name = new TextEncoder().encode(node.name);
    const header = new Uint8Array(headerSize + name.length);
    const at = chunks.length;
    push(header);
    for (const p of props) push(p);
    for (const c of node.children) writeNode(c);
    if (node.children.length) push(new Uint8Array(headerSize));
    const dv = new DataView(header.buffer);
    const set = (o: number, v: number) => (wide ? dv.setBigUint64(o, BigInt(v), true) : dv.setUint32(o, v, true));
    set(0, offset);
    set(wide ? 8 : 4, props.length);
    set(wide ? 16 : 8, propBytes);
    header[wide ? 24 : 12] = name.length;
    header.set(name, headerSize);
    void at;
  };
  for (const node of nodes) writeNode(node);
  push(new Uint8Array(headerSize));
  return joinBytes(chunks, offset);
}
