/**
 * PMD (MikuMikuDance's older model format) read for what motion conversion needs, into the same model
 * as PMX: bone names (Shift_JIS, 20 bytes), rest positions, parents, the 回転影響下/回転連動 bones as
 * inherited rotation, and the IK table (IK bone, target, chain). Vertices, faces and materials are
 * skipped by their fixed record sizes, every count checked against the bytes left.
 */
import { BinaryReader } from './binaryReader';
import { decodeNameField, nameKey } from './shiftJis';
import type { IkLimit, PmxBone, PmxModel } from './pmx';

const VERTEX_BYTES = 38;
const MATERIAL_BYTES = 70;
const BONE_BYTES = 39;
const NONE = 0xffff;

export function isPmd(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0x50 && bytes[1] === 0x6d && bytes[2] === 0x64; // "Pmd"
}

export function parsePmdBones(bytes: Uint8Array): PmxModel {
  const r = new BinaryReader(bytes, 'BAD_PMX');
  if (!isPmd(bytes)) r.fail('pmd.signature');
  r.offset = 3;
  const version = r.f32('version');
  if (!(version > 0 && version < 2)) r.fail('pmd.version', { version: String(version) });
  const name = decodeNameField(r.bytesOf(20, 'model name'));
  r.skip(256, 'comment');
  const vertices = r.count('vertices', VERTEX_BYTES);
  r.skip(vertices * VERTEX_BYTES, 'vertices');
  const indices = r.count('face indices', 2);
  r.skip(indices * 2, 'face indices');
  const materials = r.count('materials', MATERIAL_BYTES);
  r.skip(materials * MATERIAL_BYTES, 'materials');
  const bonesOffset = r.offset;
  const boneCount = r.u16('bone count');
  r.need(boneCount * BONE_BYTES, 'bones');
  if (boneCount === 0) r.fail('mmd.noBones');
  const check = (i: number, _field: string, bone: number): number => {
    if (i === NONE) return -1;
    if (i >= boneCount) r.fail('mmd.boneIndex', { bone, index: i, max: boneCount - 1 });
    return i;
  };
  const bones: PmxBone[] = [];
  const raw: { type: number; link: number; tail: number }[] = [];
  for (let i = 0; i < boneCount; i++) {
    const boneName = decodeNameField(r.bytesOf(20, 'bone name'));
    const parent = check(r.u16('bone parent'), 'parent', i);
    const tail = r.u16('bone tail');
    const type = r.u8('bone type');
    const link = r.u16('bone IK/link parent');
    const position: [number, number, number] = [r.f32('bone position'), r.f32('bone position'), r.f32('bone position')];
    if (!position.every((v) => Math.abs(v) <= 1e5)) r.fail('mmd.bonePosition', { bone: i, name: boneName, position: position.join(', ') });
    raw.push({ type, link, tail });
    bones.push({ name: boneName, englishName: '', key: nameKey(boneName), position, parent, appendParent: -1, appendRatio: 0, appendRotation: false, appendTranslation: false });
  }
  // 回転影響下 (type 5): the linked bone's rotation in full; 回転連動 (type 9): a share of it (tail = percent).
  raw.forEach((b, i) => {
    if (b.type !== 5 && b.type !== 9) return;
    const from = check(b.link, 'rotation link', i);
    if (from < 0) return;
    bones[i] = { ...bones[i], appendParent: from, appendRatio: b.type === 5 ? 1 : b.tail / 100, appendRotation: true };
  });
  const ikCount = r.u16('IK count');
  for (let k = 0; k < ikCount; k++) {
    const ikBone = check(r.u16('IK bone'), 'IK bone', k);
    const target = check(r.u16('IK target'), 'IK target', k);
    const length = r.u8('IK chain length');
    const iterations = r.u16('IK iterations');
    const weight = r.f32('IK limit');
    r.need(length * 2, 'IK chain');
    const links: number[] = [];
    for (let j = 0; j < length; j++) links.push(check(r.u16('IK chain bone'), 'IK chain bone', k));
    if (ikBone >= 0 && target >= 0 && links.every((l) => l >= 0)) {
      // MMD reads a PMD's IK weight as a quarter of the per-pass angle, and bends bones named ひざ one
      // way about X (the format has no limits of its own); three-stdlib's MMDLoader does the same.
      const limits = links.map((l): IkLimit | undefined => (bones[l].name.includes('ひざ') ? { kind: 'kneeX' } : undefined));
      bones[ikBone] = { ...bones[ikBone], ik: { target, links, iterations, limitAngle: weight * 4, limits } };
    }
  }
  return { version, name, englishName: '', bones, bonesOffset };
}
