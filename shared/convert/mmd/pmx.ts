/**
 * PMX 2.0/2.1 reader for what motion conversion needs: the bones (names, rest positions, parents,
 * inherited rotation/translation, IK). Vertices, faces, textures and materials are skipped using the
 * header's index sizes, with every count checked against the bytes left.
 */
import { BinaryReader } from './binaryReader';
import { nameKey } from './shiftJis';

/**
 * How MMD limits one IK link's rotation: 'euler' is PMX's per-axis range (radians, MMD's axes, the
 * link's local XYZ Euler angles); 'kneeX' is what MMD does to PMD bones named ひざ (the file has no
 * limits): the link turns about X only, one way, so the knee never bends backwards.
 */
export type IkLimit =
  | { readonly kind: 'euler'; readonly lower: readonly [number, number, number]; readonly upper: readonly [number, number, number] }
  | { readonly kind: 'kneeX' };

export interface PmxIk {
  readonly target: number;
  /** From the target's parent upwards (knee, then thigh). */
  readonly links: readonly number[];
  /** CCD passes MMD makes at most. */
  readonly iterations: number;
  /** Largest turn of one link in one pass, radians (PMX's unit angle; a PMD's weight x 4, as MMD reads it). */
  readonly limitAngle: number;
  /** Per link, its rotation limit, if any. */
  readonly limits: readonly (IkLimit | undefined)[];
}

export interface PmxBone {
  readonly name: string;
  readonly englishName: string;
  /** nameKey(name). */
  readonly key: string;
  /** Rest position, MMD units and axes. */
  readonly position: readonly [number, number, number];
  /** -1 for roots. */
  readonly parent: number;
  /** Bone whose rotation/translation this one inherits (付与), or -1. */
  readonly appendParent: number;
  readonly appendRatio: number;
  readonly appendRotation: boolean;
  readonly appendTranslation: boolean;
  readonly ik?: PmxIk;
}

export interface PmxModel {
  readonly version: number;
  readonly name: string;
  readonly englishName: string;
  readonly bones: readonly PmxBone[];
  /** Byte offset of the bone count (after vertices, faces, textures and materials). */
  readonly bonesOffset: number;
}

const FLAG_TAIL_IS_BONE = 0x0001;
const FLAG_IK = 0x0020;
const FLAG_APPEND_ROTATION = 0x0100;
const FLAG_APPEND_TRANSLATION = 0x0200;
const FLAG_FIXED_AXIS = 0x0400;
const FLAG_LOCAL_AXES = 0x0800;
const FLAG_EXTERNAL_PARENT = 0x2000;

/** A bone's IK block: target, MMD's solver settings (loop count, unit angle) and each link's limit. */
function readIk(r: BinaryReader, boneIndexSize: number, check: (index: number, field: string) => number): PmxIk {
  const target = check(r.index(boneIndexSize, 'IK target'), 'IK target');
  const iterations = r.i32('IK loop count');
  const limitAngle = r.f32('IK unit angle');
  const linkCount = r.count('IK links', boneIndexSize + 1);
  const links: number[] = [];
  const limits: (IkLimit | undefined)[] = [];
  for (let j = 0; j < linkCount; j++) {
    links.push(check(r.index(boneIndexSize, 'IK link'), 'IK link'));
    if (r.u8('IK link limit flag')) {
      const v = Array.from({ length: 6 }, () => r.f32('IK link limits'));
      limits.push(v.every(Number.isFinite) ? { kind: 'euler', lower: [v[0], v[1], v[2]], upper: [v[3], v[4], v[5]] } : undefined);
    } else limits.push(undefined);
  }
  return { target, links, iterations, limitAngle, limits };
}

export function parsePmxBones(bytes: Uint8Array): PmxModel {
  const r: BinaryReader = new BinaryReader(bytes, 'BAD_PMX');
  if (bytes.length < 9 || bytes[0] !== 0x50 || bytes[1] !== 0x4d || bytes[2] !== 0x58 || bytes[3] !== 0x20) {
    r.fail('pmx.signature');
  }
  r.offset = 4;
  const version = r.f32('version');
  if (!(version >= 2 && version < 2.2)) r.fail('pmx.version', { version: String(version) });
  const globalsCount = r.u8('header size');
  if (globalsCount < 8) r.fail('pmx.globals', { count: globalsCount });
  const globals = r.bytesOf(globalsCount, 'header settings');
  const [encoding, extraVec4, vertexIndexSize, textureIndexSize, materialIndexSize, boneIndexSize] = globals;
  if (encoding > 1) r.fail('pmx.encoding', { value: encoding });
  if (extraVec4 > 4) r.fail('pmx.extraUv', { count: extraVec4 });
  const sizes = { vertex: vertexIndexSize, texture: textureIndexSize, material: materialIndexSize, bone: boneIndexSize };
  for (const s of Object.values(sizes)) {
    if (s !== 1 && s !== 2 && s !== 4) r.fail('pmx.indexSize', { size: s });
  }
  const decoder = new TextDecoder(encoding === 0 ? 'utf-16le' : 'utf-8');
  const text = (field: string): string => {
    const n = r.i32(`${field} length`);
    if (n < 0) r.fail('pmx.negativeLength', { length: n, offset: r.offset });
    return decoder.decode(r.bytesOf(n, field));
  };
  const skipText = (field: string): void => {
    const n = r.i32(`${field} length`);
    if (n < 0) r.fail('pmx.negativeLength', { length: n, offset: r.offset });
    r.skip(n, field);
  };

  const name = text('model name');
  const englishName = text('model English name');
  skipText('comment');
  skipText('English comment');

  // Vertices: variable size by weight type, so they are walked one by one.
  const vertexFixed = 12 + 12 + 8 + 16 * extraVec4;
  const vertexCount = r.count('vertices', vertexFixed + 1 + boneIndexSize + 4);
  for (let i = 0; i < vertexCount; i++) {
    r.skip(vertexFixed, 'vertex');
    const type = r.u8('vertex weight type');
    const b = boneIndexSize;
    let n: number;
    if (type === 0) n = b;
    else if (type === 1) n = 2 * b + 4;
    else if (type === 2 || type === 4) n = 4 * b + 16;
    else if (type === 3) n = 2 * b + 4 + 36;
    else r.fail('pmx.weightType', { vertex: i, type });
    r.skip(n + 4, 'vertex weights');
  }
  const indexCount = r.count('face indices', vertexIndexSize);
  r.skip(indexCount * vertexIndexSize, 'face indices');
  const textureCount = r.count('textures', 4);
  for (let i = 0; i < textureCount; i++) skipText('texture path');
  const materialCount = r.count('materials', 8 + 16 + 12 + 4 + 12 + 1 + 16 + 4 + 2 * textureIndexSize + 2 + 1 + 4 + 4);
  for (let i = 0; i < materialCount; i++) {
    skipText('material name');
    skipText('material English name');
    r.skip(16 + 12 + 4 + 12 + 1 + 16 + 4 + 2 * textureIndexSize + 1, 'material');
    const sharedToon = r.u8('material toon flag');
    r.skip(sharedToon === 0 ? textureIndexSize : 1, 'material toon');
    skipText('material memo');
    r.skip(4, 'material face count');
  }

  const bonesOffset = r.offset;
  const minBone = 8 + 12 + boneIndexSize + 4 + 2 + boneIndexSize;
  const boneCount = r.count('bones', minBone);
  const bones: PmxBone[] = [];
  const checkIndex = (i: number, _field: string, boneIndex: number): number => {
    if (i < -1 || i >= boneCount) r.fail('mmd.boneIndex', { bone: boneIndex, index: i, max: boneCount - 1 });
    return i;
  };
  for (let i = 0; i < boneCount; i++) {
    const boneName = text('bone name');
    const boneEnglish = text('bone English name');
    const position: [number, number, number] = [r.f32('bone position'), r.f32('bone position'), r.f32('bone position')];
    if (!position.every((v) => Math.abs(v) <= 1e5)) r.fail('mmd.bonePosition', { bone: i, name: boneName, position: position.join(', ') });
    const parent = checkIndex(r.index(boneIndexSize, 'bone parent'), 'parent', i);
    r.skip(4, 'bone layer');
    const flags = r.u16('bone flags');
    if (flags & FLAG_TAIL_IS_BONE) r.skip(boneIndexSize, 'bone tail');
    else r.skip(12, 'bone tail');
    let appendParent = -1;
    let appendRatio = 0;
    const appendRotation = (flags & FLAG_APPEND_ROTATION) !== 0;
    const appendTranslation = (flags & FLAG_APPEND_TRANSLATION) !== 0;
    if (appendRotation || appendTranslation) {
      appendParent = checkIndex(r.index(boneIndexSize, 'bone inherit parent'), 'inherit parent', i);
      appendRatio = r.f32('bone inherit ratio');
      if (!Number.isFinite(appendRatio)) r.fail('pmx.inheritRatio', { bone: i, name: boneName });
    }
    if (flags & FLAG_FIXED_AXIS) r.skip(12, 'bone fixed axis');
    if (flags & FLAG_LOCAL_AXES) r.skip(24, 'bone local axes');
    if (flags & FLAG_EXTERNAL_PARENT) r.skip(4, 'bone external parent');
    const ik = flags & FLAG_IK ? readIk(r, boneIndexSize, (v, field) => checkIndex(v, field, i)) : undefined;
    bones.push({
      name: boneName,
      englishName: boneEnglish,
      key: nameKey(boneName),
      position,
      parent,
      appendParent: appendRotation || appendTranslation ? appendParent : -1,
      appendRatio,
      appendRotation,
      appendTranslation,
      ik,
    });
  }
  if (bones.length === 0) r.fail('mmd.noBones');
  return { version, name, englishName, bones, bonesOffset };
}
