/**
 * Compares a captured motion with the motion that was rendered: limb directions per body part (the
 * angle between the bone segment in the truth and in the capture, both on the standard skeleton),
 * the hips path after removing its mean offset, over the frames the detector saw.
 */
import { standardFk, type StandardPose } from '../shared/vrm/standardFk';
import { bodyLandmarksFromFlat, type DetectedFrame, type PoseLandmarkName } from '../shared/capture/landmarks';
import { landmarksOfPose } from '../shared/capture/landmarkRig';
import { solveBody } from '../shared/capture/bodySolver';
import { fromAxisAngle, IDENTITY, rotateVec } from '../shared/math/quat';
import { dot3, normalize3, sub3 } from '../shared/math/vec3';
import { durationOf, type Motion, type Quat, type Vec3 } from '../shared/motion/types';
import { normalizedPoseAt } from '../shared/vrma/fk';
import type { HumanBoneName } from '../shared/vrm/humanBones';

type Part = { readonly name: string; readonly dir: (p: StandardPose) => Vec3 };
const seg = (a: HumanBoneName, b: HumanBoneName) => (p: StandardPose) => sub3(p[b].position, p[a].position);

export const PARTS: readonly Part[] = [
  { name: 'torso', dir: seg('hips', 'neck') },
  { name: 'head (facing)', dir: (p) => rotateVec(p.head.rotation, [0, 0, 1]) },
  ...(['left', 'right'] as const).flatMap((s) => [
    { name: `${s} upper arm`, dir: seg(`${s}UpperArm`, `${s}LowerArm`) },
    { name: `${s} forearm`, dir: seg(`${s}LowerArm`, `${s}Hand`) },
    { name: `${s} thigh`, dir: seg(`${s}UpperLeg`, `${s}LowerLeg`) },
    { name: `${s} shin`, dir: seg(`${s}LowerLeg`, `${s}Foot`) },
    { name: `${s} foot`, dir: seg(`${s}Foot`, `${s}Toes`) },
  ]),
];

/**
 * The rotation taking the world's directions into the frame a capture from a camera at `position`
 * looking at `target` is in: its heading only (x to the image's right, y up, z toward the camera, level).
 * A camera straight in front of the figure on +z gives the identity. The camera's pitch is left out:
 * BlazePose's world landmarks come out upright at a few degrees of pitch (05_20's shot, 3° down: limbs
 * 10.7° median with the heading alone, 12.3° with the pitch turned in as well).
 */
export function cameraView(position: Vec3, target: Vec3): Quat {
  const back = normalize3([position[0] - target[0], 0, position[2] - target[2]]);
  return fromAxisAngle([0, 1, 0], -Math.atan2(back[0], back[2]));
}

export interface Stats {
  readonly median: number;
  readonly p95: number;
  readonly max: number;
  readonly n: number;
}

export function stats(v: number[]): Stats {
  const s = [...v].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))];
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1], n: s.length };
}

export interface Comparison {
  /** Degrees per part. */
  readonly parts: Record<string, Stats>;
  /** Degrees over every part and frame. */
  readonly all: Stats;
  /** Degrees over the limbs (upper arms, forearms, thighs, shins): what the aims are about. */
  readonly limbs: Stats;
  /** The limbs' degrees, every part and frame (clips pool them: one median over several clips). */
  readonly limbSamples: readonly number[];
  /** Metres: hips path after both paths' mean positions are made to coincide. */
  readonly hips: Stats;
  /** Frames the detector found a person in, of those rendered. */
  readonly found: number;
  readonly rendered: number;
}

/**
 * `captured` key 0 is the first frame with a person (its time in `frames`), plus `cut` seconds when
 * the outlier fixer dropped frames at the start; frames it dropped at either end are not compared.
 * `truthTime`: where in the truth a frame's time is (a fake webcam loops its clip from a moment the
 * test does not choose). `view`: the world's directions in the camera's frame (cameraView); a capture sees
 * the body in the camera's frame, so the truth is turned into it before the two are compared.
 */
export function compareCapture(
  truth: Motion,
  captured: Motion,
  frames: readonly DetectedFrame[],
  cut = 0,
  truthTime: (t: number) => number = (t) => t,
  view: Quat = IDENTITY,
): Comparison {
  const first = frames.find((f) => f.world)!.time;
  const t0 = first + cut;
  const end = durationOf(captured) + t0 + 1e-4;
  const seen = frames.filter((f) => f.world && f.time >= t0 - 1e-4 && f.time <= end);
  const per: Record<string, number[]> = Object.fromEntries(PARTS.map((p) => [p.name, []]));
  const all: number[] = [], limbs: number[] = [];
  const tp: Vec3[] = [], cp: Vec3[] = [];
  for (const f of seen) {
    const a = normalizedPoseAt(truth, truthTime(f.time)), b = normalizedPoseAt(captured, f.time - t0);
    const pa = standardFk(a.rotations), pb = standardFk(b.rotations);
    for (const part of PARTS) {
      const e = (Math.acos(Math.min(1, Math.max(-1, dot3(normalize3(rotateVec(view, part.dir(pa))), normalize3(part.dir(pb)))))) * 180) / Math.PI;
      per[part.name].push(e);
      all.push(e);
      if (/arm|forearm|thigh|shin/.test(part.name)) limbs.push(e);
    }
    tp.push(rotateVec(view, a.hipsPosition ?? [0, 0, 0]));
    cp.push(b.hipsPosition ?? [0, 0, 0]);
  }
  const mean = (v: Vec3[]) => v.reduce((s, p) => [s[0] + p[0] / v.length, s[1] + p[1] / v.length, s[2] + p[2] / v.length] as Vec3, [0, 0, 0] as Vec3);
  const mt = mean(tp), mc = mean(cp);
  const hips = tp.map((p, i) => Math.hypot(...sub3(sub3(cp[i], mc), sub3(p, mt))));
  return {
    parts: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, stats(v)])),
    all: stats(all),
    limbs: stats(limbs),
    limbSamples: limbs,
    hips: stats(hips),
    found: seen.length,
    rendered: frames.length,
  };
}

export function formatComparison(c: Comparison): string {
  const f = (s: Stats) => `${s.median.toFixed(1).padStart(5)} ${s.p95.toFixed(1).padStart(5)} ${s.max.toFixed(1).padStart(5)}`;
  const lines = [`found a person in ${c.found}/${c.rendered} frames`, `part              median   p95   max (degrees)`];
  for (const [k, v] of Object.entries(c.parts)) lines.push(`${k.padEnd(17)} ${f(v)}`);
  lines.push(`${'limbs'.padEnd(17)} ${f(c.limbs)}`);
  lines.push(`${'all parts'.padEnd(17)} ${f(c.all)}`);
  lines.push(`hips path (cm)    ${(c.hips.median * 100).toFixed(1).padStart(5)} ${(c.hips.p95 * 100).toFixed(1).padStart(5)} ${(c.hips.max * 100).toFixed(1).padStart(5)}`);
  return lines.join('\n');
}

/** The limb parts as landmark segments: the detector's own reading of each limb, before any solver. */
const LIMB_SEGMENTS: readonly (readonly [string, PoseLandmarkName, PoseLandmarkName])[] = (['left', 'right'] as const).flatMap((s) =>
  [
    [`${s} upper arm`, `${s}Shoulder`, `${s}Elbow`],
    [`${s} forearm`, `${s}Elbow`, `${s}Wrist`],
    [`${s} thigh`, `${s}Hip`, `${s}Knee`],
    [`${s} shin`, `${s}Knee`, `${s}Ankle`],
  ] as const
);

export interface ErrorSources {
  /** Degrees per limb: the detector's landmark segment against the same segment of the truth's landmarks (no solver, no filter). */
  readonly detector: Record<string, Stats>;
  readonly detectorLimbs: Stats;
  /** Degrees over the limbs: the solver given the truth's own landmarks (landmarkRig on the truth's pose), what the solver loses. */
  readonly solverOnTruth: Stats;
  /** Degrees over the limbs: the solver given the detector's raw landmarks, frame by frame, against the truth. */
  readonly solverOnDetector: Stats;
}

const angle = (a: Vec3, b: Vec3) => (Math.acos(Math.min(1, Math.max(-1, dot3(normalize3(a), normalize3(b))))) * 180) / Math.PI;

/**
 * Where the limbs' error comes from, frame by frame on the frames with a person: the detector's own
 * segments against the truth's, and the solver on the truth's landmarks and on the detector's. When the
 * solver loses nothing on the truth and its result on the detector's landmarks matches the detector's
 * segments, the error is the detector's.
 */
export function errorSources(truth: Motion, frames: readonly DetectedFrame[], view: Quat = IDENTITY): ErrorSources {
  const per: Record<string, number[]> = Object.fromEntries(LIMB_SEGMENTS.map(([n]) => [n, []]));
  const det: number[] = [], onTruth: number[] = [], onDet: number[] = [];
  const limbParts = PARTS.filter((p) => /arm|forearm|thigh|shin/.test(p.name));
  for (const f of frames) {
    if (!f.world) continue;
    const tp = standardFk(normalizedPoseAt(truth, f.time).rotations);
    const T = landmarksOfPose(tp), D = bodyLandmarksFromFlat(f.world);
    for (const [name, a, b] of LIMB_SEGMENTS) {
      const e = angle(rotateVec(view, sub3(T[b], T[a])), sub3(D[b], D[a]));
      per[name].push(e);
      det.push(e);
    }
    const st = standardFk(solveBody(T).rotations), sd = standardFk(solveBody(D).rotations);
    for (const part of limbParts) {
      onTruth.push(angle(part.dir(tp), part.dir(st)));
      onDet.push(angle(rotateVec(view, part.dir(tp)), part.dir(sd)));
    }
  }
  return {
    detector: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, stats(v)])),
    detectorLimbs: stats(det),
    solverOnTruth: stats(onTruth),
    solverOnDetector: stats(onDet),
  };
}

export function formatErrorSources(e: ErrorSources): string {
  const f = (s: Stats) => `${s.median.toFixed(1).padStart(5)} ${s.p95.toFixed(1).padStart(5)} ${s.max.toFixed(1).padStart(5)}`;
  const lines = ["where the limbs' error comes from (degrees, median p95 max, raw frames)", 'detector landmarks vs truth landmarks:'];
  for (const [k, v] of Object.entries(e.detector)) lines.push(`  ${k.padEnd(16)} ${f(v)}`);
  lines.push(`  ${'limbs'.padEnd(16)} ${f(e.detectorLimbs)}`);
  lines.push(`solver on the truth's landmarks  ${f(e.solverOnTruth)}`);
  lines.push(`solver on the detector's         ${f(e.solverOnDetector)}`);
  return lines.join('\n');
}
