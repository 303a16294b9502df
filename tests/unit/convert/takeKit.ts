/**
 * Fidelity measure shared by the FBX and glTF suites: for every frame of a take, the world direction of
 * each mapped limb (bone joint -> next mapped joint) by the source's FK against the same limb of the
 * converted .vrma after write -> read, played by the core's FK on its T-pose skeleton. Facing is
 * normalised by the one rotation that best aligns the two sets (Horn), which must itself agree with the
 * converter's axes. Also: three.js's loader + AnimationMixer positions against our FK, by joint name.
 */
import * as THREE from 'three';
import type { Motion, Quat, Vec3 } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import type { HumanoidRig, Poser } from '../../../shared/convert/humanoid/retarget';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { createPoseEvaluator } from '../../../shared/vrma/fk';
import { angleBetween, rotateVec } from '../../../shared/math/quat';
import { LIMB_TARGETS, angleDeg, bestRotation, percentile } from '../../../testkit/bvhKit';

/** Limb pairs (bone, the first mapped bone it points at), arms, legs, hands, fingers and the torso. */
export const FIDELITY_LIMBS: readonly [HumanBoneName, readonly HumanBoneName[]][] = [
  ...LIMB_TARGETS,
  ['spine', ['chest', 'upperChest', 'neck', 'head']],
  ['chest', ['upperChest', 'neck', 'head']],
  ['upperChest', ['neck', 'head']],
  ['neck', ['head']],
];

export interface FidelityRow {
  file: string;
  take: string;
  frames: number;
  bones: number;
  median: number;
  p95: number;
  max: number;
  facingVsConverter: number;
  /**
   * Hips path: the converted hips translation over the .vrma's rest hips height against the source's
   * world hips path (from its rest position, turned by the same facing) over its own rest hips height,
   * in percent, after the one constant vertical shift grounding applies (`groundingOffset`, % too).
   */
  hipsMedian: number;
  hipsP95: number;
  groundingOffset: number;
  /** The .vrma's rest hips height (metres): what players scale the path by. */
  restHipsHeight: number;
}

export function limbPairs(rig: HumanoidRig): [HumanBoneName, HumanBoneName][] {
  const out: [HumanBoneName, HumanBoneName][] = [];
  for (const [b, targets] of FIDELITY_LIMBS) {
    if (rig.bones[b] === undefined) continue;
    const t = targets.find((x) => rig.bones[x] !== undefined);
    if (t) out.push([b, t]);
  }
  return out;
}

/** Converted motion vs source FK for one take; `written` is the .vrma read back. */
export function measureTake(file: string, take: string, rig: HumanoidRig, poser: Poser, times: Float32Array, motion: Motion): FidelityRow & { written: Uint8Array } {
  const written = writeVrma(motion);
  const pose = createPoseEvaluator(readVrma(written));
  const limbs = limbPairs(rig);
  const pairs: [Vec3, Vec3][] = [];
  const step = Math.max(1, Math.floor(times.length / 200));
  const size = rig.hipsHeight;
  for (let f = 0; f < times.length; f += step) {
    poser.pose(f);
    const P = poser.positions;
    const out = pose(times[f]);
    for (const [b, t] of limbs) {
      const j = rig.bones[b]!, k = rig.bones[t]!;
      const src: Vec3 = [P[k * 3] - P[j * 3], P[k * 3 + 1] - P[j * 3 + 1], P[k * 3 + 2] - P[j * 3 + 2]];
      // A zero-length source segment (a helper joint at the same place) has no direction to keep.
      if (Math.hypot(...src) < size * 1e-3) continue;
      const pb = out[b]!.position, pt = out[t]!.position;
      pairs.push([src, [pt[0] - pb[0], pt[1] - pb[1], pt[2] - pb[2]]]);
    }
  }
  const facing = bestRotation(pairs);
  const errors = pairs.map(([a, b]) => angleDeg(rotateVec(facing, a), b)).sort((x, y) => x - y);
  const hips = hipsPathError(rig, poser, times, motion, facing, step);
  return {
    file,
    take,
    frames: times.length,
    bones: limbs.length,
    median: percentile(errors, 0.5),
    p95: percentile(errors, 0.95),
    max: errors[errors.length - 1],
    facingVsConverter: (angleBetween(facing, rig.toVrm) * 180) / Math.PI,
    ...hips,
    written,
  };
}

/** See FidelityRow.hipsMedian: per sampled frame, |converted/H_vrma − facing·source/H_source − (0, c, 0)|, c the median vertical gap. */
export function hipsPathError(
  rig: HumanoidRig,
  poser: Poser,
  times: Float32Array,
  motion: Motion,
  facing: Quat,
  step: number,
): Pick<FidelityRow, 'hipsMedian' | 'hipsP95' | 'groundingOffset' | 'restHipsHeight'> {
  const pose = createPoseEvaluator(motion, ['hips']);
  const j = rig.bones.hips!;
  const rest = rig.source.rest.positions[j];
  const H = rig.hipsHeight, Hv = motion.rest.hipsHeight;
  const gaps: Vec3[] = [];
  for (let f = 0; f < times.length; f += step) {
    poser.pose(f);
    const P = poser.positions;
    const s = rotateVec(facing, [(P[j * 3] - rest[0]) / H, (P[j * 3 + 1] - rest[1]) / H, (P[j * 3 + 2] - rest[2]) / H]);
    const o = pose(times[f]).hips!.position;
    gaps.push([o[0] / Hv - s[0], (o[1] - Hv) / Hv - s[1], o[2] / Hv - s[2]]);
  }
  const c = percentile(gaps.map((g) => g[1]).sort((a, b) => a - b), 0.5);
  const errors = gaps.map((g) => Math.hypot(g[0], g[1] - c, g[2]) * 100).sort((a, b) => a - b);
  return { hipsMedian: percentile(errors, 0.5), hipsP95: percentile(errors, 0.95), groundingOffset: c * 100, restHipsHeight: Hv };
}

export function fidelityTable(title: string, rows: readonly FidelityRow[]): string {
  const lines = [
    '| file | take | frames | limb bones | median ° | p95 ° | max ° | facing vs converter ° | hips path median % | hips path p95 % | grounding offset % | rest hips height m |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.file} | ${r.take} | ${r.frames} | ${r.bones} | ${r.median.toFixed(4)} | ${r.p95.toFixed(4)} | ${r.max.toFixed(4)} | ${r.facingVsConverter.toFixed(4)} | ${r.hipsMedian.toFixed(4)} | ${
        r.hipsP95.toFixed(4)
      } | ${r.groundingOffset.toFixed(2)} | ${r.restHipsHeight.toFixed(4)} |`,
    );
  }
  return `${title}\n${lines.join('\n')}`;
}

/**
 * World positions of named objects in a three.js scene: the first Bone of each name (a rigid mesh part
 * may share its bone's name, RobotExpressive's "Torso"), else the first object, as PropertyBinding binds.
 */
export function threeWorldPositions(root: THREE.Object3D): Map<string, Vec3> {
  root.updateMatrixWorld(true);
  const out = new Map<string, Vec3>();
  const bones = new Set<string>();
  const v = new THREE.Vector3();
  root.traverse((o) => {
    const bone = (o as THREE.Bone).isBone === true;
    if (bones.has(o.name) || (out.has(o.name) && !bone)) return;
    o.getWorldPosition(v);
    out.set(o.name, [v.x, v.y, v.z]);
    if (bone) bones.add(o.name);
  });
  return out;
}

/**
 * Our FK against three.js for the same instants: per limb pair, the angle between the two directions
 * after the best common rotation. `threeAt(frame)` gives three's world position of source joint j
 * (by name for FBX, by node index for glTF). Returns the sorted errors (degrees).
 */
export function compareWithThree(
  rig: HumanoidRig,
  poser: Poser,
  frames: readonly number[],
  threeAt: (frame: number) => (joint: number) => Vec3 | undefined,
): number[] {
  const limbs = limbPairs(rig);
  const pairs: [Vec3, Vec3][] = [];
  for (const f of frames) {
    poser.pose(f);
    const P = poser.positions;
    const three = threeAt(f);
    for (const [b, t] of limbs) {
      const j = rig.bones[b]!, k = rig.bones[t]!;
      const a = three(j), c = three(k);
      if (!a || !c) continue;
      const ours: Vec3 = [P[k * 3] - P[j * 3], P[k * 3 + 1] - P[j * 3 + 1], P[k * 3 + 2] - P[j * 3 + 2]];
      const theirs: Vec3 = [c[0] - a[0], c[1] - a[1], c[2] - a[2]];
      if (Math.hypot(...ours) < rig.hipsHeight * 1e-3 || Math.hypot(...theirs) < 1e-9) continue;
      pairs.push([ours, theirs]);
    }
  }
  const R = bestRotation(pairs);
  return pairs.map(([a, b]) => angleDeg(rotateVec(R, a), b)).sort((x, y) => x - y);
}

/** Three.js positions by our joint names (FBXLoader names objects after the models, sanitized). */
export function byJointName(rig: HumanoidRig, positions: Map<string, Vec3>): (joint: number) => Vec3 | undefined {
  const names = rig.source.hierarchy.joints.map((j) => THREE.PropertyBinding.sanitizeNodeName(j.name));
  return (j) => positions.get(names[j]);
}
