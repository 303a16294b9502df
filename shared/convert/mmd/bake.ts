/**
 * Plays an MMD rig frame by frame (keys -> FK -> leg IK) and records the VRM humanoid pose:
 * normalized local rotations on the T-posed MMD skeleton and the hips position in metres.
 */
import type { Quat } from '../../motion/types';
import { conj, mul } from '../../math/quat';
import type { HumanBoneName } from '../../vrm/humanBones';
import type { KeyTrack } from '../../vrma/buildMotion';
import { MMD_UNIT_METRES, type MmdRig } from './rig';
import { RigPose } from './rigPose';
import type { VrmMapping } from './vrmMapping';

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
  /** 1 where IK was on and the target within the leg's reach. */
  readonly solved: Uint8Array;
}

export interface MmdBake {
  readonly times: Float32Array;
  readonly rotations: Partial<Record<HumanBoneName, KeyTrack>>;
  readonly hipsTranslation: KeyTrack;
  readonly legIk: readonly LegIkTrace[];
}

/** Rotations that never leave identity by more than this (radians) are not written. */
const STILL_ANGLE = 1e-4;

export function bakeMmd(rig: MmdRig, mapping: VrmMapping, source: MmdKeySource, frames: Float64Array): MmdBake {
  const n = frames.length;
  const pose = new RigPose(rig);
  const times = Float32Array.from(frames, (f) => f / 30);
  const tracks = new Map<HumanBoneName, Float32Array>();
  for (const b of mapping.bones) tracks.set(b, new Float32Array(n * 4));
  const hips = new Float32Array(n * 3);
  const legIk = pose.legChains.map((c) => ({ side: c.side, target: new Float32Array(n * 3), solved: new Uint8Array(n) }));
  const ikKeys = rig.bones.map((b) => b.key);
  const hipsSource = mapping.source.get('hips')!;
  const S = MMD_UNIT_METRES;
  const world = new Map<HumanBoneName, Quat>();
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

  for (let f = 0; f < n; f++) {
    const frame = frames[f];
    source.sample(frame, set);
    pose.solve((ik) => source.ikEnabled(ikKeys[ik], frame));
    world.clear();
    for (const b of mapping.bones) {
      const src = mapping.source.get(b)!;
      const p = mapping.parent.get(b) ?? null;
      const w = src >= 0 ? mul(pose.worldRotation(src), mapping.alignment.get(b)!) : world.get(p!)!;
      world.set(b, w);
      const local = p ? mul(conj(world.get(p)!), w) : w;
      const out = tracks.get(b)!;
      // Keep consecutive keys on one hemisphere so linear interpolation takes the short way.
      const flip = f > 0 && out[(f - 1) * 4] * local[0] + out[(f - 1) * 4 + 1] * local[1] + out[(f - 1) * 4 + 2] * local[2] + out[(f - 1) * 4 + 3] * local[3] < 0 ? -1 : 1;
      out[f * 4] = local[0] * flip;
      out[f * 4 + 1] = local[1] * flip;
      out[f * 4 + 2] = local[2] * flip;
      out[f * 4 + 3] = local[3] * flip;
    }
    const h = pose.worldPosition(hipsSource);
    hips.set(h, f * 3);
    pose.legChains.forEach((c, k) => {
      legIk[k].target.set(pose.worldPosition(c.ik), f * 3);
      legIk[k].solved[f] = pose.legReachable[k];
    });
  }

  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [b, values] of tracks) {
    let moving = b === 'hips';
    for (let f = 0; f < n && !moving; f++) if (2 * Math.acos(Math.min(1, Math.abs(values[f * 4 + 3]))) > STILL_ANGLE) moving = true;
    if (moving) rotations[b] = { times, values };
  }
  return { times, rotations, hipsTranslation: { times, values: hips }, legIk };
}
