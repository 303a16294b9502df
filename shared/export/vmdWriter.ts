/**
 * VRM Animation -> MMD motion (.vmd) for a model (its .pmx/.pmd, or MMD's standard bone set). The
 * inverse of the MMD converter (shared/convert/mmd): every frame's normalized pose gives each VRM
 * bone's world rotation W; its MMD source bone must reach G = W·A⁻¹ (A: the converter's rest
 * alignment, T-pose arms onto the model's A-stance), so its key is G(parent)⁻¹·G with the inherited
 * (付与) part taken out. D-bones (足D, ひざD, 足首D) follow their FK bone, which is the one keyed, as MMD
 * users key it. The hips path is split as MMD users expect: centre (センター) horizontal, groove
 * (グルーブ) vertical. Leg IK is switched off (pure FK) unless `ik: 'legs'`, which places 足ＩＫ and
 * つま先ＩＫ where the FK feet are so the motion stays editable in MMD. The gaze goes on 両目 (vmdGaze).
 * Keys are 30 fps frames, made
 * sparse by the optimizer within `tolerance`.
 */
import type { Channel, Motion, Quat } from '../motion/types';
import { warning, type MotionWarning } from '../warnings';
import { fail } from '../errors';
import { conj, conjugateMultiplyFlat, multiplyFlat } from '../math/quat';
import { quatPow } from '../math/quatPow';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../vrm/humanBones';
import { MMD_UNIT_METRES } from '../convert/mmd/rig';
import { RigPose } from '../convert/mmd/rigPose';
import { VMD_FPS } from '../convert/mmd/vmd';
import { optimizeChannel, segmentFits } from '../edits/optimize';
import { BONE_INDEX, sampleFrames, worldRotationsAt, type PoseFrames } from './frames';
import { exportRig, type ExportRig } from './mmdRig';
import { RigKeys } from './rigKeys';
import { applyGaze, DEFAULT_BONE_GAZE, uniformGaze } from './gaze';
import { encodeVmd, type VmdBoneKeys, type VmdIkSwitch, type VmdMorphKeys } from './vmdEncode';
import type { ExportResult } from './report';

export interface VmdExportOptions {
  /** The model's .pmx or .pmd bytes; MMD's standard bone set without. */
  readonly model?: Uint8Array;
  /** 'off' (default): FK keys, leg IK switched off. 'legs': leg IK targets keyed and switched on. */
  readonly ik?: 'off' | 'legs';
  /** Rotation tolerance of the sparse keys, radians (0 keeps every frame). */
  readonly tolerance?: number;
  /** Asked frame rate: VMD has only 30 fps, so anything else is reported, not used. */
  readonly fps?: number;
}

/** Tight enough that VMD -> VRMA -> VMD -> VRMA stays within 0.1° per bone (two chained errors). */
export const VMD_ROTATION_TOLERANCE = 0.0005;
/** Position tolerance of the sparse keys, metres. */
const POSITION_TOLERANCE = 0.0005;
const WEIGHT_TOLERANCE = 0.002;

/** VRM expression -> the MMD morph an MMD model names it by (the reader's table read backwards). */
const PRESET_MORPH: Readonly<Record<string, string>> = {
  aa: 'あ',
  ih: 'い',
  ou: 'う',
  ee: 'え',
  oh: 'お',
  blink: 'まばたき',
  blinkLeft: 'ウィンク',
  blinkRight: 'ウィンク右',
  happy: '笑い',
  angry: '怒り',
  sad: '困る',
  relaxed: 'なごみ',
  surprised: 'びっくり',
};

/** One keyed MMD bone: its name and per-frame key values (VRM frame, metres). */
interface Track {
  readonly bone: number;
  readonly rot?: Float32Array;
  readonly pos?: Float32Array;
}

interface Plan {
  readonly vrm: HumanBoneName;
  /** The rig bone that must reach the pose, and the bone keyed for it (its FK bone for a D-bone). */
  readonly source: number;
  readonly keyed: number;
  readonly alignInverse: Quat;
}

function planBones(er: ExportRig): Plan[] {
  const { rig, mapping } = er;
  const plans: Plan[] = [];
  for (const vrm of mapping.bones) {
    const source = mapping.source.get(vrm)!;
    if (source < 0) continue;
    const b = rig.bones[source];
    const fk = b.key.endsWith('D') && b.appendRotation && b.appendParent >= 0 && b.appendRatio === 1 && !rig.bones[b.appendParent].appendRotation;
    plans.push({ vrm, source, keyed: fk ? b.appendParent : source, alignInverse: conj(mapping.alignment.get(vrm)!) });
  }
  return plans;
}

/** The rig's 下半身 ancestors that carry the hips path: centre (x, z) and groove (y) when present. */
function pathBones(er: ExportRig, hips: number): { centre: number; groove: number } {
  let centre = -1;
  let groove = -1;
  for (let p = er.rig.bones[hips].parent; p >= 0; p = er.rig.bones[p].parent) {
    if (er.rig.bones[p].key === 'センター') centre = p;
    if (er.rig.bones[p].key === 'グルーブ') groove = p;
  }
  if (centre < 0) centre = groove >= 0 ? groove : hips;
  if (groove === centre) groove = -1;
  return { centre, groove };
}

interface Baked {
  readonly tracks: Track[];
  readonly ikTracks: Track[];
  readonly legIk: number[];
}

/** The model's 両目 (both eyes) bone and the share of its rotation the eyes inherit (付与). */
interface GazeBone {
  readonly bone: number;
  readonly ratio: number;
}

function gazeBoneOf(er: ExportRig): GazeBone | undefined {
  const eye = er.mapping.source.get('leftEye') ?? er.mapping.source.get('rightEye') ?? -1;
  const b = eye >= 0 ? er.rig.bones[eye] : undefined;
  if (!b?.appendRotation || b.appendParent < 0 || !(Math.abs(b.appendRatio) > 1e-3)) return undefined;
  return er.rig.bones[b.appendParent].key === '両目' ? { bone: b.appendParent, ratio: b.appendRatio } : undefined;
}

/**
 * How the model's eyes take the gaze: through 両目, whose key is where both eyes look and of which
 * the model passes `ratio` to each eye (its own range, as a VRM's range maps are), so the eyes turn
 * as three-vrm's bone lookAt turns them with a range map of 90° -> 90°·ratio; a model that has eyes
 * but no 両目 gets the eye keys themselves, with three-vrm's default range (90° -> 10°).
 */
function vmdGaze(frames: PoseFrames, er: ExportRig, report: MotionWarning[]): { frames: PoseFrames; gaze?: GazeBone } {
  const gaze = gazeBoneOf(er);
  const hasEyes = (er.mapping.source.get('leftEye') ?? -1) >= 0 || (er.mapping.source.get('rightEye') ?? -1) >= 0;
  const rig = gaze ? uniformGaze('bone', 90, 90 * Math.abs(gaze.ratio)) : DEFAULT_BONE_GAZE;
  const out = applyGaze('VMD', frames, rig, { hasEyes, expressions: false }, report);
  return { frames: out, gaze: out !== frames ? gaze : undefined };
}

function bake(frames: PoseFrames, er: ExportRig, ikLegs: boolean, gaze?: GazeBone): Baked {
  const { rig, mapping } = er;
  const n = frames.times.length;
  const plans = planBones(er);
  const keys = new RigKeys(rig, plans.map((p) => p.source));
  const planAt = new Int32Array(rig.bones.length).fill(-1);
  plans.forEach((p, k) => (planAt[p.source] = k));
  const W = new Float64Array(HUMAN_BONE_NAMES.length * 4);
  const T = new Float64Array(4);
  const A = new Float64Array(4);
  const key = new Float64Array(4);
  const align = plans.map((p) => Float64Array.from(p.alignInverse));
  const keyedBones = [...new Set([...plans.map((p) => p.keyed), ...(gaze ? [gaze.bone] : [])])];
  const eyes = new Set(['leftEye', 'rightEye'].map((e) => mapping.source.get(e as HumanBoneName) ?? -1).filter((i) => i >= 0));
  let gazeKeyed = false;
  const rot = new Map(keyedBones.map((b) => [b, new Float32Array(n * 4)]));
  const hipsBone = mapping.source.get('hips')!;
  const { centre, groove } = pathBones(er, hipsBone);
  const centrePos = frames.hips ? new Float32Array(n * 3) : undefined;
  const groovePos = frames.hips && groove >= 0 ? new Float32Array(n * 3) : undefined;
  const rigHips = rig.bones[hipsBone].rest;
  const scale = frames.hipsHeight > 1e-3 && Number.isFinite(frames.hipsHeight) ? rigHips[1] / frames.hipsHeight : 1;
  const pose = ikLegs ? new RigPose(rig) : undefined;
  const ikBones = pose ? [...pose.legChains.map((c) => c.ik), ...pose.toeChains.map((c) => c.ik)] : [];
  const ikPos = new Map(ikBones.map((b) => [b, new Float32Array(n * 3)]));
  for (let f = 0; f < n; f++) {
    worldRotationsAt(frames, f, W);
    keys.reset();
    gazeKeyed = false;
    keys.sweep((bone) => {
      const k = planAt[bone];
      if (k < 0) return;
      const p = plans[k];
      multiplyFlat(T, 0, W, BONE_INDEX[p.vrm] * 4, align[k], 0);
      const parent = rig.bones[p.source].parent;
      if (parent >= 0) conjugateMultiplyFlat(key, 0, keys.world, parent * 4, T, 0);
      else key.set(T);
      if (gaze && !gazeKeyed && eyes.has(p.source)) {
        // The first eye of the frame keys 両目 so that its inherited share is the eye's whole turn;
        // the eyes' own keys (below) then only hold what 両目 could not give them.
        quatPow(key[0], key[1], key[2], key[3], 1 / gaze.ratio, A, 0);
        keys.key.set(A.subarray(0, 4), gaze.bone * 4);
        gazeKeyed = true;
      }
      if (p.keyed === p.source) {
        // Take the inherited part out: local = key · inherited must come out as G(parent)⁻¹·T.
        keys.appendOf(p.source, A, 0);
        A[0] = -A[0];
        A[1] = -A[1];
        A[2] = -A[2];
        multiplyFlat(key, 0, key, 0, A, 0);
      }
      keys.key.set(key, p.keyed * 4);
    });
    for (const [b, out] of rot) {
      const o = f * 4;
      let x = keys.key[b * 4], y = keys.key[b * 4 + 1], z = keys.key[b * 4 + 2], w = keys.key[b * 4 + 3];
      // Keep consecutive keys on one hemisphere: MMD, like three.js, slerps between them.
      if (f > 0 && x * out[o - 4] + y * out[o - 3] + z * out[o - 2] + w * out[o - 1] < 0) {
        x = -x;
        y = -y;
        z = -z;
        w = -w;
      }
      out[o] = x;
      out[o + 1] = y;
      out[o + 2] = z;
      out[o + 3] = w;
    }
    if (frames.hips && centrePos) {
      const o = f * 3;
      const dx = frames.hips[o] * scale - rigHips[0], dy = frames.hips[o + 1] * scale - rigHips[1], dz = frames.hips[o + 2] * scale - rigHips[2];
      centrePos[o] = dx;
      centrePos[o + 2] = dz;
      if (groovePos) groovePos[o + 1] = dy;
      else centrePos[o + 1] = dy;
    }
    if (pose) placeIkTargets(pose, keys, f, centre, centrePos, groove, groovePos, ikPos);
  }
  const tracks: Track[] = keyedBones.map((bone) => ({ bone, rot: rot.get(bone)! }));
  if (centrePos) {
    const existing = tracks.find((t) => t.bone === centre);
    if (existing) tracks[tracks.indexOf(existing)] = { ...existing, pos: centrePos };
    else tracks.push({ bone: centre, pos: centrePos });
  }
  if (groovePos) tracks.push({ bone: groove, pos: groovePos });
  const ikTracks = ikBones.map((bone) => ({ bone, pos: ikPos.get(bone)! }));
  return { tracks, ikTracks, legIk: ikBones };
}

/**
 * With leg IK kept: every IK bone's key moves it onto the FK result (足ＩＫ onto the ankle, つま先ＩＫ
 * onto the toe tip), so MMD's IK solve lands the leg where the FK keys put it.
 */
function placeIkTargets(
  pose: RigPose,
  keys: RigKeys,
  f: number,
  centre: number,
  centrePos: Float32Array | undefined,
  groove: number,
  groovePos: Float32Array | undefined,
  ikPos: Map<number, Float32Array>,
): void {
  pose.resetKeys();
  pose.keyRot.set(keys.key);
  if (centrePos) { for (let c = 0; c < 3; c++) pose.keyPos[centre * 3 + c] = centrePos[f * 3 + c]; }
  if (groovePos) { for (let c = 0; c < 3; c++) pose.keyPos[groove * 3 + c] += groovePos[f * 3 + c]; }
  const place = (ik: number, goal: number) => {
    pose.solve(() => false);
    const out = ikPos.get(ik)!;
    for (let c = 0; c < 3; c++) {
      const d = pose.worldPos[goal * 3 + c] - pose.worldPos[ik * 3 + c];
      out[f * 3 + c] = d;
      pose.keyPos[ik * 3 + c] = d;
    }
  };
  for (const c of pose.legChains) place(c.ik, c.ankle);
  for (const c of pose.toeChains) place(c.ik, c.tip);
}

/**
 * Past this many frames (about 9 minutes) keys are chosen by Douglas-Peucker alone: the fewest-keys
 * search costs several times as much there for a fraction of a percent fewer keys (bench/edits).
 */
const LONG_TRACK = 16384;

/**
 * Whether a track is worth reducing: if hardly any key could be dropped on its own (chords over two
 * frames rarely fit), the search would keep nearly every key anyway, at many times the cost.
 */
function reducible(channel: Channel, tolerance: number): boolean {
  const n = channel.times.length;
  const fits = segmentFits(channel, tolerance);
  let ok = 0;
  let tried = 0;
  for (let i = 0; i + 2 < n; i += 2, tried++) if (fits(i, i + 2)) ok++;
  return ok >= tried * 0.25;
}

/** Frames kept by the optimizer for one track (rotation and position keys share their frames in a VMD). */
function keptFrames(track: Track, n: number, tolerance: number): Uint32Array {
  const every = () => Uint32Array.from({ length: n }, (_, i) => i);
  if (tolerance <= 0 || n <= 2) return every();
  const times = Float32Array.from({ length: n }, (_, i) => i / VMD_FPS);
  const rot: Channel | undefined = track.rot && { node: 0, path: 'rotation', times, values: track.rot };
  const pos: Channel | undefined = track.pos && { node: 0, path: 'translation', times, values: track.pos };
  if ((rot && !reducible(rot, tolerance)) || (pos && !reducible(pos, POSITION_TOLERANCE))) return every();
  const kept = new Set<number>();
  const method = n > LONG_TRACK ? 'fast' : 'fewest';
  if (rot) { for (const t of optimizeChannel(rot, tolerance, method).times) kept.add(Math.round(t * VMD_FPS)); }
  if (pos) { for (const t of optimizeChannel(pos, POSITION_TOLERANCE, method).times) kept.add(Math.round(t * VMD_FPS)); }
  return Uint32Array.from([...kept].sort((a, b) => a - b));
}

/** A baked track as VMD keys: MMD axes (left-handed: z mirrored) and units. */
function toVmdKeys(track: Track, name: string, n: number, tolerance: number): VmdBoneKeys {
  const frames = keptFrames(track, n, tolerance);
  const positions = new Float32Array(frames.length * 3);
  const rotations = new Float32Array(frames.length * 4);
  frames.forEach((f, k) => {
    if (track.pos) {
      positions[k * 3] = track.pos[f * 3] / MMD_UNIT_METRES;
      positions[k * 3 + 1] = track.pos[f * 3 + 1] / MMD_UNIT_METRES;
      positions[k * 3 + 2] = -track.pos[f * 3 + 2] / MMD_UNIT_METRES;
    }
    if (track.rot) {
      rotations[k * 4] = -track.rot[f * 4];
      rotations[k * 4 + 1] = -track.rot[f * 4 + 1];
      rotations[k * 4 + 2] = track.rot[f * 4 + 2];
      rotations[k * 4 + 3] = track.rot[f * 4 + 3];
    } else rotations[k * 4 + 3] = 1;
  });
  return { name, frames, positions, rotations };
}

function morphKeys(frames: PoseFrames, left: string[]): VmdMorphKeys[] {
  const out: VmdMorphKeys[] = [];
  const n = frames.times.length;
  const times = Float32Array.from({ length: n }, (_, i) => i / VMD_FPS);
  for (const [name, weights] of frames.expressions) {
    const morph = PRESET_MORPH[name];
    if (!morph) {
      left.push(name);
      continue;
    }
    const values = new Float32Array(n * 3);
    for (let i = 0; i < n; i++) values[i * 3] = weights[i];
    const kept = optimizeChannel({ node: 0, path: 'translation', times, values }, WEIGHT_TOLERANCE).times;
    const keyFrames = Uint32Array.from(kept, (t) => Math.round(t * VMD_FPS));
    out.push({ name: morph, frames: keyFrames, weights: Float32Array.from(keyFrames, (f) => weights[f]) });
  }
  return out;
}

function bonesLeftOut(frames: PoseFrames, er: ExportRig): HumanBoneName[] {
  return [...frames.rotations.keys()].filter((b) => !((er.mapping.source.get(b) ?? -1) >= 0));
}

export function writeVmd(motion: Motion, options: VmdExportOptions = {}): ExportResult {
  const ik = options.ik ?? 'off';
  if (ik !== 'off' && ik !== 'legs') fail('BAD_PARAMETER', 'export.badOption', { option: 'ik', allowed: 'off, legs', value: String(ik) });
  const tolerance = options.tolerance ?? VMD_ROTATION_TOLERANCE;
  if (!(tolerance >= 0 && tolerance <= Math.PI)) fail('BAD_PARAMETER', 'export.badOption', { option: 'tolerance', allowed: '0..π', value: String(tolerance) });
  const report: MotionWarning[] = [];
  if (options.fps !== undefined && options.fps !== VMD_FPS)
    report.push(warning(`VMD: written at 30 fps, the only rate the format has (asked for ${options.fps})`, 'export.fpsFixed', { format: 'VMD', fps: VMD_FPS, asked: String(options.fps) }));
  const er = exportRig(options.model);
  if (!options.model) report.push(warning('VMD: no model given: written for the standard skeleton', 'export.standardSkeleton', { format: 'VMD' }));
  const { frames, gaze } = vmdGaze(sampleFrames(motion, VMD_FPS), er, report);
  const n = frames.times.length;
  const baked = bake(frames, er, ik === 'legs', gaze);
  const bones = [...baked.tracks, ...baked.ikTracks].map((t) => toVmdKeys(t, er.names[t.bone], n, tolerance));
  const leftExpressions: string[] = [];
  const morphs = morphKeys(frames, leftExpressions);
  const chains = new RigPose(er.rig);
  const legIkBones = [...chains.legChains.map((c) => c.ik), ...chains.toeChains.map((c) => c.ik)];
  const ikSwitch: VmdIkSwitch[] = legIkBones.length ? [{ frame: 0, enabled: legIkBones.map((b) => ({ name: er.names[b], on: ik === 'legs' })) }] : [];
  const encoded = encodeVmd({ modelName: er.modelName, bones, morphs, ik: ikSwitch });
  const leftBones = bonesLeftOut(frames, er);
  if (leftBones.length)
    report.push(
      warning(`VMD: ${leftBones.length} animated bone(s) with no bone in the target skeleton left out: ${leftBones.join(', ')}`, 'export.bonesNotCarried', {
        format: 'VMD',
        count: leftBones.length,
        bones: leftBones.join(', '),
      }),
    );
  if (leftExpressions.length)
    report.push(
      warning(`VMD: ${leftExpressions.length} expression(s) the format cannot carry left out: ${leftExpressions.join(', ')}`, 'export.expressionsNotCarried', {
        format: 'VMD',
        count: leftExpressions.length,
        names: leftExpressions.join(', '),
      }),
    );
  if (ik === 'off' && legIkBones.length) report.push(warning('VMD: leg IK switched off (keys are FK); pass --ik legs to keep the IK editable', 'export.ikCleared', { format: 'VMD' }));
  if (encoded.cutNames.length)
    report.push(
      warning(`VMD: ${encoded.cutNames.length} name(s) longer than the format allows cut to fit: ${encoded.cutNames.join(', ')}`, 'export.namesCut', {
        format: 'VMD',
        count: encoded.cutNames.length,
        names: encoded.cutNames.join(', '),
      }),
    );
  return { bytes: encoded.bytes, report, frames: n, fps: VMD_FPS };
}
