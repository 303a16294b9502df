/**
 * Test-only PMD writer: a model's bones (names in Shift_JIS, 20 bytes), rest positions, parents,
 * inherited rotation as 回転影響下 (ratio 1) or 回転連動 (a percentage), and its IK table; no vertices,
 * faces or materials. Lets the PMD reader be checked against the PMX reader on the same skeleton.
 */
import type { PmxModel } from '../../shared/convert/mmd/pmx';
import { encodeShiftJis } from './mmdWriters';

export function writePmd(model: PmxModel): Uint8Array {
  const bones = model.bones;
  const iks = bones.map((b, i) => ({ b, i })).filter((x) => x.b.ik);
  const size = 3 + 4 + 20 + 256 + 4 + 4 + 4 + 2 + bones.length * 39 + 2 + iks.reduce((s, x) => s + 11 + 2 * x.b.ik!.links.length, 0) + 2;
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
    dv.setUint16(o + 5, 40, true);
    dv.setFloat32(o + 7, 0.5, true);
    o += 11;
    for (const l of b.ik!.links) {
      dv.setUint16(o, l, true);
      o += 2;
    }
  }
  return out;
}
