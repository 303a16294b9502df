/**
 * VMD (Vocaloid Motion Data) parser: bone keys with their Bezier curves, morph keys and IK on/off
 * keys. Camera, light and shadow sections are skipped. Keys are grouped per name and sorted by frame
 * into typed arrays, ready for sampling.
 */
import { BinaryReader } from './binaryReader';
import { decodeNameField, nameKey } from './shiftJis';

/** MMD motions run at 30 frames per second. */
export const VMD_FPS = 30;
/**
 * Frames beyond this (20 minutes at 30 fps; long dance motions run 5-10) are treated as corruption
 * rather than baked: a flipped byte in a frame number must not turn a small file into hours of keys.
 */
export const VMD_MAX_FRAME = 30 * 60 * 20;
/** Positions beyond this many MMD units (8 km) are treated as corruption. */
const MAX_POSITION = 1e5;

export interface VmdBoneTrack {
  /** Name as stored (decoded). */
  readonly name: string;
  /** nameKey(name), what bones are matched by. */
  readonly key: string;
  readonly frames: Uint32Array;
  /** 3 per key, MMD units, MMD (left-handed) axes. */
  readonly positions: Float32Array;
  /** 4 per key (x, y, z, w), MMD axes, normalized. */
  readonly rotations: Float32Array;
  /**
   * 16 per key, the curve of the segment ending at this key: for X, Y, Z, rotation in turn
   * x1, y1, x2, y2 in 0..127.
   */
  readonly curves: Uint8Array;
}

export interface VmdMorphTrack {
  readonly name: string;
  readonly key: string;
  readonly frames: Uint32Array;
  readonly weights: Float32Array;
}

export interface VmdIkKey {
  readonly frame: number;
  /** nameKey(IK bone name) -> enabled. */
  readonly enabled: ReadonlyMap<string, boolean>;
}

export interface Vmd {
  readonly modelName: string;
  readonly boneTracks: readonly VmdBoneTrack[];
  readonly morphTracks: readonly VmdMorphTrack[];
  /** Sorted by frame. */
  readonly ikKeys: readonly VmdIkKey[];
  /** Keys as stored in the file (repeated keys on one frame included, though only the last is kept). */
  readonly boneKeyCount: number;
  readonly morphKeyCount: number;
  readonly cameraKeyCount: number;
  /** Last frame over bone, morph and IK keys. */
  readonly lastFrame: number;
}

const BONE_KEY_BYTES = 111;
const MORPH_KEY_BYTES = 23;
const CAMERA_KEY_BYTES = 61;
const LIGHT_KEY_BYTES = 28;
const SHADOW_KEY_BYTES = 9;

interface RawKey {
  index: number;
  frame: number;
}

/** Key indices grouped per name, sorted by frame; a repeated frame keeps the later key. */
function groupKeys(keys: readonly string[], frames: Uint32Array): Map<string, number[]> {
  const groups = new Map<string, RawKey[]>();
  keys.forEach((k, index) => {
    let g = groups.get(k);
    if (!g) groups.set(k, g = []);
    g.push({ index, frame: frames[index] });
  });
  const out = new Map<string, number[]>();
  for (const [k, g] of groups) {
    g.sort((a, b) => a.frame - b.frame || a.index - b.index);
    const kept: number[] = [];
    for (const key of g) {
      if (kept.length && frames[kept[kept.length - 1]] === key.frame) kept[kept.length - 1] = key.index;
      else kept.push(key.index);
    }
    out.set(k, kept);
  }
  return out;
}

export function parseVmd(bytes: Uint8Array): Vmd {
  const r: BinaryReader = new BinaryReader(bytes, 'BAD_VMD');
  if (bytes.length < 30) r.fail('vmd.tooShort', { bytes: bytes.length });
  const header = new TextDecoder('latin1').decode(bytes.subarray(0, 30));
  let nameBytes: number;
  if (header.startsWith('Vocaloid Motion Data 0002')) nameBytes = 20;
  else if (header.startsWith('Vocaloid Motion Data file')) nameBytes = 10;
  else r.fail('vmd.signature');
  r.offset = 30;
  const modelName = decodeNameField(r.bytesOf(nameBytes, 'model name'));

  // Bone keys.
  const boneCount = r.count('bone keys', BONE_KEY_BYTES);
  const boneNames: string[] = new Array(boneCount);
  const boneFrames = new Uint32Array(boneCount);
  const bonePos = new Float32Array(boneCount * 3);
  const boneRot = new Float32Array(boneCount * 4);
  const boneCurves = new Uint8Array(boneCount * 16);
  const rawNames = new Map<string, string>();
  let lastFrame = 0;
  for (let i = 0; i < boneCount; i++) {
    const name = decodeNameField(r.bytesOf(15, 'bone key name'));
    const frame = r.u32('bone key frame');
    if (frame > VMD_MAX_FRAME) r.fail('vmd.boneFrame', { key: i, name, frame, max: VMD_MAX_FRAME });
    for (let c = 0; c < 3; c++) {
      const v = r.f32('bone key position');
      if (!(Math.abs(v) <= MAX_POSITION)) r.fail('vmd.position', { key: i, name, value: String(v) });
      bonePos[i * 3 + c] = v;
    }
    let n2 = 0;
    for (let c = 0; c < 4; c++) {
      const v = r.f32('bone key rotation');
      if (!Number.isFinite(v)) r.fail('vmd.rotation', { key: i, name, value: String(v) });
      boneRot[i * 4 + c] = v;
      n2 += v * v;
    }
    const n = Math.sqrt(n2);
    if (n > 1e-12 && Number.isFinite(n)) { for (let c = 0; c < 4; c++) boneRot[i * 4 + c] /= n; }
    else boneRot.set([0, 0, 0, 1], i * 4);
    const ip = r.bytesOf(64, 'bone key interpolation');
    // Row 0 of the 64 bytes holds x1 of X,Y,Z,R, then y1, x2, y2 (the other rows are shifted copies).
    for (let c = 0; c < 4; c++) {
      boneCurves[i * 16 + c * 4] = ip[c];
      boneCurves[i * 16 + c * 4 + 1] = ip[4 + c];
      boneCurves[i * 16 + c * 4 + 2] = ip[8 + c];
      boneCurves[i * 16 + c * 4 + 3] = ip[12 + c];
    }
    const key = nameKey(name);
    if (!rawNames.has(key)) rawNames.set(key, name);
    boneNames[i] = key;
    boneFrames[i] = frame;
    if (frame > lastFrame) lastFrame = frame;
  }

  // Morph keys; older files may end right after the bone section.
  let morphCount = 0;
  const morphNames: string[] = [];
  let morphFrames = new Uint32Array(0);
  let morphWeights = new Float32Array(0);
  if (r.remaining >= 4) {
    morphCount = r.count('morph keys', MORPH_KEY_BYTES);
    morphFrames = new Uint32Array(morphCount);
    morphWeights = new Float32Array(morphCount);
    for (let i = 0; i < morphCount; i++) {
      const name = decodeNameField(r.bytesOf(15, 'morph key name'));
      const frame = r.u32('morph key frame');
      if (frame > VMD_MAX_FRAME) r.fail('vmd.morphFrame', { key: i, name, frame, max: VMD_MAX_FRAME });
      const w = r.f32('morph key weight');
      if (!Number.isFinite(w)) r.fail('vmd.weight', { key: i, name, value: String(w) });
      const key = nameKey(name);
      if (!rawNames.has(key)) rawNames.set(key, name);
      morphNames.push(key);
      morphFrames[i] = frame;
      morphWeights[i] = w;
      if (frame > lastFrame) lastFrame = frame;
    }
  }

  let cameraKeyCount = 0;
  const ikKeys: VmdIkKey[] = [];
  if (r.remaining >= 4) {
    cameraKeyCount = r.count('camera keys', CAMERA_KEY_BYTES);
    r.skip(cameraKeyCount * CAMERA_KEY_BYTES, 'camera keys');
  }
  if (r.remaining >= 4) {
    const n = r.count('light keys', LIGHT_KEY_BYTES);
    r.skip(n * LIGHT_KEY_BYTES, 'light keys');
  }
  if (r.remaining >= 4) {
    const n = r.count('self-shadow keys', SHADOW_KEY_BYTES);
    r.skip(n * SHADOW_KEY_BYTES, 'self-shadow keys');
  }
  if (r.remaining >= 4) {
    const n = r.count('IK/visibility keys', 9);
    for (let i = 0; i < n; i++) {
      const frame = r.u32('IK key frame');
      if (frame > VMD_MAX_FRAME) r.fail('vmd.ikFrame', { key: i, frame, max: VMD_MAX_FRAME });
      r.u8('IK key visibility');
      const m = r.count('IK switches', 21);
      const enabled = new Map<string, boolean>();
      for (let j = 0; j < m; j++) {
        const name = nameKey(decodeNameField(r.bytesOf(20, 'IK bone name')));
        enabled.set(name, r.u8('IK switch') !== 0);
      }
      ikKeys.push({ frame, enabled });
      if (frame > lastFrame) lastFrame = frame;
    }
    ikKeys.sort((a, b) => a.frame - b.frame);
  }

  const boneTracks = boneTracksOf(boneNames, boneFrames, bonePos, boneRot, boneCurves, rawNames);
  const morphTracks = morphTracksOf(morphNames, morphFrames, morphWeights, rawNames);
  return { modelName, boneTracks, morphTracks, ikKeys, boneKeyCount: boneCount, morphKeyCount: morphCount, cameraKeyCount, lastFrame };
}

/** Bone keys grouped into one track per bone (by name key), each in frame order. */
function boneTracksOf(
  boneNames: readonly string[],
  boneFrames: Uint32Array,
  bonePos: Float32Array,
  boneRot: Float32Array,
  boneCurves: Uint8Array,
  rawNames: ReadonlyMap<string, string>,
): VmdBoneTrack[] {
  const boneTracks: VmdBoneTrack[] = [];
  for (const [key, idx] of groupKeys(boneNames, boneFrames)) {
    const n = idx.length;
    const frames = new Uint32Array(n);
    const positions = new Float32Array(n * 3);
    const rotations = new Float32Array(n * 4);
    const curves = new Uint8Array(n * 16);
    idx.forEach((k, j) => {
      frames[j] = boneFrames[k];
      positions.set(bonePos.subarray(k * 3, k * 3 + 3), j * 3);
      rotations.set(boneRot.subarray(k * 4, k * 4 + 4), j * 4);
      curves.set(boneCurves.subarray(k * 16, k * 16 + 16), j * 16);
    });
    boneTracks.push({ name: rawNames.get(key) ?? key, key, frames, positions, rotations, curves });
  }
  return boneTracks;
}

/** Morph keys grouped into one track per morph (by name key), each in frame order. */
function morphTracksOf(morphNames: readonly string[], morphFrames: Uint32Array, morphWeights: Float32Array, rawNames: ReadonlyMap<string, string>): VmdMorphTrack[] {
  const morphTracks: VmdMorphTrack[] = [];
  for (const [key, idx] of groupKeys(morphNames, morphFrames)) {
    morphTracks.push({
      name: rawNames.get(key) ?? key,
      key,
      frames: Uint32Array.from(idx, (k) => morphFrames[k]),
      weights: Float32Array.from(idx, (k) => morphWeights[k]),
    });
  }
  return morphTracks;
}
