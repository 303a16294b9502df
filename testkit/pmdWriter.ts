/**
 * Test-only PMD writer: a model's bones (names in Shift_JIS, 20 bytes), rest positions, parents,
 * inherited rotation as 回転影響下 (ratio 1) or 回転連動 (a percentage), and its IK table (pass count and
 * angle; a PMD has no link limits: MMD limits bones named ひざ by name); no vertices,
 * faces or materials. Lets the PMD reader be checked against the PMX reader on the same skeleton.
 */
import type { PmxModel } from '../shared/convert/mmd/pmx';
import { encodeShiftJis } from './mmdWriters';

/**
 * After the IK table: no morphs (u16), morph and bone display groups (u8, u8, u32), no English
 * names (u8), ten empty toon texture names (100 bytes each), no rigid bodies or joints (u32, u32):
 * what full PMD readers such as three-stdlib's MMDLoader walk through.
 */
const TAIL_BYTES = 2 + 1 + 1 + 4 + 1 + 1000 + 4 + 4;

export function writePmd(model: PmxModel): Uint8Array {
  const bones = model.bones;
  const iks = bones.map((b, i) => ({ b, i })).filter((x) => x.b.ik);
  const size = 3 + 4 + 20 + 256 + 4 + 4 + 4 + 2 + bones.length * 39 + 2 + iks.reduce((s, x) => s + 11 + 2 * x.b.ik!.links.length, 0) + TAIL_BYTES;
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  let o = 0;
  out.set([0x50, 0x6d, 0x64], 0);
  dv.setFloat32(3, 1, true);
  o = 7;
  const name = (s: string) => {
    const b = encodeShiftJis(s).subarray(0, 20);
    out.set(b, o);
    o += 20;
  };
  name(model.name);
  o += 256;
  o += 12; // no vertices, face indices or materials
  dv.setUint16(o, bones.length, true);
  o += 2;
  for (const b of bones) {
    name(b.name);
    dv.setUint16(o, b.parent < 0 ? 0xffff : b.parent, true);
    const ratio = b.appendRotation && b.appendParent >= 0 ? b.appendRatio : 0;
    const type = b.ik ? 2 : ratio === 0 ? 0 : ratio === 1 ? 5 : 9;
    dv.setUint16(o + 2, type === 9 ? Math.round(ratio * 100) : 0xffff, true);
    out[o + 4] = type;
    dv.setUint16(o + 5, type === 5 || type === 9 ? b.appendParent : 0, true);
    dv.setFloat32(o + 7, b.position[0], true);
    dv.setFloat32(o + 11, b.position[1], true);
    dv.setFloat32(o + 15, b.position[2], true);
    o += 19;
  }
  dv.setUint16(o, iks.length, true);
  o += 2;
  for (const { b, i } of iks) {
    dv.setUint16(o, i, true);
    dv.setUint16(o + 2, b.ik!.target, true);
    out[o + 4] = b.ik!.links.length;
    // The model's own pass count and per-pass angle (a PMD stores a quarter of it, as MMD reads it).
    dv.setUint16(o + 5, Math.min(0xffff, b.ik!.iterations), true);
    dv.setFloat32(o + 7, b.ik!.limitAngle / 4, true);
    o += 11;
    for (const l of b.ik!.links) {
      dv.setUint16(o, l, true);
      o += 2;
    }
  }
  return out;
}
