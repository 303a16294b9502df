/**
 * Plays an MMD rig frame by frame (keys -> FK -> leg IK) and records the VRM humanoid pose:
 * normalized local rotations on the T-posed MMD skeleton and the hips position in metres.
 */
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';
import { MMD_UNIT_METRES, type MmdRig } from './rig';
import { LEG_REACHED, LEG_SHORT, RigPose } from './rigPose';
import { conjugateMultiplyFlat, multiplyFlat } from '../../math/quat';
import type { VrmMapping } from './vrmMapping';
import { JOINT_FRAME_COST, canSpend, readBudget, type ReadBudget } from '../../readBudget';
import { fail } from '../../errors';

/**
 * 64 units per byte of the model and motion together, at least 32 M (a long dance on a full model
 * needs ~10 M), per sample of a frame: sparse keys play every frame SUBFRAMES times (sparseKeys.ts),
 * a fixed factor that refuses what the one-sample bake refuses.
 */
export function mmdBudget(motionBytes: number, modelBytes: number, samplesPerFrame = 1): ReadBudget {
  return readBudget(motionBytes + modelBytes, 64 * samplesPerFrame, (1 << 25) * samplesPerFrame);
}

/** The bake at every `step`-th sample (the frames of a bake played several times per frame). */
export function everyNthSample(bake: MmdBake, step: number): MmdBake {
  if (step === 1) return bake;
  const n = Math.floor((bake.times.length - 1) / step) + 1;
  const pick = <T extends Float32Array | Uint8Array>(a: T, size: number): T => {
    const out = new (a.constructor as { new(n: number): T })(n * size);
    for (let i = 0; i < n; i++) out.set(a.subarray(i * step * size, (i * step + 1) * size), i * size);
    return out;
  };
  const times = pick(bake.times, 1);
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, t] of Object.entries(bake.rotations) as [HumanBoneName, KeyTrack][]) rotations[b] = { times, values: pick(t.values, 4) };
  const legIk = bake.legIk.map((l) => ({ side: l.side, target: pick(l.target, 3), solved: pick(l.solved, 1), short: pick(l.short, 1), stretched: pick(l.stretched, 1) }));
  const sourceJoints = bake.sourceJoints && Object.fromEntries(Object.entries(bake.sourceJoints).map(([b, j]) => [b, pick(j!, 3)]));
  return { times, rotations, hipsTranslation: { times, values: pick(bake.hipsTranslation.values, 3) }, legIk, ...(sourceJoints ? { sourceJoints } : {}) };
}

/** Where key values come from: a VMD (sampled with its curves) or a VPD (constant). */
export interface MmdKeySource {
  /** Fill key values (MMD units and axes) for rig bones at `frame`: call set(boneIndex, px, py, pz, qx, qy, qz, qw). */
  sample(frame: number, set: (bone: number, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number) => void): void;
  ikEnabled(ikBoneKey: string, frame: number): boolean;
}

export interface LegIkTrace {
  readonly side: 'left' | 'right';
  /** IK target (足ＩＫ world position) per sample, metres, VRM frame. */
  readonly target: Float32Array;
  /** 1 where IK was on and the foot reached its target. */
  readonly solved: Uint8Array;
  /** 1 where IK was on and the foot stayed short of the target (more than REACH_TOLERANCE_M). */
  readonly short: Uint8Array;
  /** 1 where the foot stayed short because the target lies beyond the straight leg. */
  readonly stretched: Uint8Array;
}

export interface MmdBake {
  /** World position (metres, VRM frame) of each written bone's MMD source per sample, 3 per sample; only when traced. */
  readonly sourceJoints?: Readonly<Partial<Record<HumanBoneName, Float32Array>>>;
  readonly times: Float32Array;
  readonly rotations: Partial<Record<HumanBoneName, KeyTrack>>;
  readonly hipsTranslation: KeyTrack;
  readonly legIk: readonly LegIkTrace[];
}

/** Rotations that never leave identity by more than this (radians) are not written. */
const STILL_ANGLE = 1e-4;

/**
 * `budget`: the model's and the motion's read budget (mmdBudget): the bake spends (active bones + IK
 * chains) x frames on it BEFORE the first frame, so a 20k-bone chain under a 400-byte VMD is refused
 * at once instead of running for a quarter of an hour (issue 24, finding 6). `samplesPerFrame`: how
 * many of `frames` make one frame (sparse keys play each frame several times), for the refusal's words.
 */
export function bakeMmd(rig: MmdRig, mapping: VrmMapping, source: MmdKeySource, frames: Float64Array, budget: ReadBudget, traceJoints = false, samplesPerFrame = 1): MmdBake {
  const n = frames.length;
  const pose = new RigPose(rig, [...mapping.source.values()].filter((i) => i >= 0));
  // Said in frames and the one-sample limit, whatever the samples per frame (mmdBudget scales both).
  const said = { frames: Math.floor((n - 1) / samplesPerFrame) + 1, bones: pose.workPerFrame, limit: budget.limit / samplesPerFrame };
  if (!canSpend(budget, JOINT_FRAME_COST * n * (pose.workPerFrame + mapping.bones.length))) fail('TOO_LARGE', 'budget.bake', said);
  const times = Float32Array.from(frames, (f) => f / 30);
  const tracks = new Map<HumanBoneName, Float32Array>();
  for (const b of mapping.bones) tracks.set(b, new Float32Array(n * 4));
  const hips = new Float32Array(n * 3);
  const legIk = pose.legChains.map((c) => ({ side: c.side, target: new Float32Array(n * 3), solved: new Uint8Array(n), short: new Uint8Array(n), stretched: new Uint8Array(n) }));
  const ikKeys = rig.bones.map((b) => b.key);
  const hipsSource = mapping.source.get('hips')!;
  const S = MMD_UNIT_METRES;
  // Per written bone: its rig source, its parent's slot, and the rest alignment, as flat arrays.
  const bones = mapping.bones;
  const m = bones.length;
  const srcOf = Int32Array.from(bones, (b) => mapping.source.get(b)!);
  const parentSlot = Int32Array.from(bones, (b) => {
    const p = mapping.parent.get(b);
    return p ? bones.indexOf(p) : -1;
  });
  const align = new Float64Array(m * 4);
  bones.forEach((b, k) => align.set(mapping.alignment.get(b)!, k * 4));
  const outs = bones.map((b) => tracks.get(b)!);
  const world = new Float64Array(m * 4);
  const local = new Float64Array(4);
  const set = (i: number, px: number, py: number, pz: number, qx: number, qy: number, qz: number, qw: number) => {
    // MMD (left-handed, facing -Z) -> VRM (right-handed, facing +Z): mirror through z.
    pose.keyPos[i * 3] = px * S;
    pose.keyPos[i * 3 + 1] = py * S;
    pose.keyPos[i * 3 + 2] = -pz * S;
    pose.keyRot[i * 4] = -qx;
    pose.keyRot[i * 4 + 1] = -qy;
    pose.keyRot[i * 4 + 2] = qz;
    pose.keyRot[i * 4 + 3] = qw;
  };

  const joints = traceJoints ? bones.map((_, k) => (srcOf[k] >= 0 ? new Float32Array(n * 3) : undefined)) : [];
  const wr = pose.worldRot;
  for (let f = 0; f < n; f++) {
    const frame = frames[f];
    source.sample(frame, set);
    pose.solve((ik) => source.ikEnabled(ikKeys[ik], frame));
    for (let k = 0; k < m; k++) {
      const src = srcOf[k];
      const o = k * 4;
      if (src >= 0) {
        // world = G(source) · A
        multiplyFlat(world, o, wr, src * 4, align, o);
      } else {
        const p4 = parentSlot[k] * 4;
        world[o] = world[p4];
        world[o + 1] = world[p4 + 1];
        world[o + 2] = world[p4 + 2];
        world[o + 3] = world[p4 + 3];
      }
      // local = conj(parent world) · world
      const p = parentSlot[k];
      if (p >= 0) conjugateMultiplyFlat(local, 0, world, p * 4, world, o);
      else for (let c = 0; c < 4; c++) local[c] = world[o + c];
      const lx = local[0], ly = local[1], lz = local[2], lw = local[3];
      const out = outs[k];
      const fo = f * 4;
      // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
      const flip = f > 0 && out[fo - 4] * lx + out[fo - 3] * ly + out[fo - 2] * lz + out[fo - 1] * lw < 0 ? -1 : 1;
      out[fo] = lx * flip;
      out[fo + 1] = ly * flip;
      out[fo + 2] = lz * flip;
      out[fo + 3] = lw * flip;
    }
    joints.forEach((j, k) => {
      if (j) { for (let c = 0; c < 3; c++) j[f * 3 + c] = pose.worldPos[srcOf[k] * 3 + c]; }
    });
    const h = hipsSource * 3;
    hips[f * 3] = pose.worldPos[h];
    hips[f * 3 + 1] = pose.worldPos[h + 1];
    hips[f * 3 + 2] = pose.worldPos[h + 2];
    pose.legChains.forEach((c, k) => {
      legIk[k].target.set(pose.worldPosition(c.ik), f * 3);
      legIk[k].solved[f] = pose.legState[k] === LEG_REACHED ? 1 : 0;
      legIk[k].short[f] = pose.legState[k] === LEG_SHORT ? 1 : 0;
      legIk[k].stretched[f] = pose.legStretched[k];
    });
  }

  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, values] of tracks) {
    let moving = b === 'hips';
    for (let f = 0; f < n && !moving; f++) if (2 * Math.acos(Math.min(1, Math.abs(values[f * 4 + 3]))) > STILL_ANGLE) moving = true;
    if (moving) rotations[b] = { times, values };
  }
  const sourceJoints: Partial<Record<HumanBoneName, Float32Array>> = {};
  joints.forEach((j, k) => {
    if (j) sourceJoints[bones[k]] = j;
  });
  return { times, rotations, hipsTranslation: { times, values: hips }, legIk, ...(traceJoints ? { sourceJoints } : {}) };
}
