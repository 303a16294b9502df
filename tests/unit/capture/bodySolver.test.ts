/**
 * The body solver recovers known poses from landmarks placed by our own forward kinematics. Poses that
 * follow the solver's rules (hinged elbows and knees bent enough, the torso's twist shared by the
 * spine) come back exactly; any pose comes back with the same limb directions.
 */
import { describe, expect, it } from 'vitest';
import { standardFk, type StandardPose } from '../../../shared/vrm/standardFk';
import { solveBody } from '../../../shared/capture/bodySolver';
import { bodyLandmarksFromFlat, POSE_LANDMARKS, type BodyLandmarks } from '../../../shared/capture/landmarks';
import { landmarksOfPose } from '../../../shared/capture/landmarkRig';
import { angleBetween, fromAxisAngle, mul, normalize } from '../../../shared/math/quat';
import { normalize3, sub3, dot3, add3, scale3 } from '../../../shared/math/vec3';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';

const DEG = Math.PI / 180;

/** A small deterministic generator so the poses are the same on every run. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function randomRotation(r: () => number, maxDeg: number): Quat {
  const axis: Vec3 = normalize3([r() - 0.5, r() - 0.5, r() - 0.5]);
  return fromAxisAngle(axis, (r() * 2 - 1) * maxDeg * DEG);
}

/** A pose that obeys the solver's rules, so every bone is observable. */
function rulePose(r: () => number): Partial<Record<HumanBoneName, Quat>> {
  const twist = fromAxisAngle([0, 1, 0], (r() * 2 - 1) * 15 * DEG);
  const neck = randomRotation(r, 25);
  const rot: Partial<Record<HumanBoneName, Quat>> = {
    hips: randomRotation(r, 40),
    spine: twist,
    chest: twist,
    upperChest: twist,
    neck,
    head: neck,
  };
  for (const side of ['left', 'right'] as const) {
    const s = side === 'left' ? 1 : -1;
    rot[`${side}UpperArm`] = normalize(mul(fromAxisAngle([0, 0, 1], -s * (20 + r() * 60) * DEG), randomRotation(r, 50)));
    rot[`${side}LowerArm`] = fromAxisAngle([0, -s, 0], (30 + r() * 100) * DEG);
    rot[`${side}Hand`] = randomRotation(r, 40);
    rot[`${side}UpperLeg`] = randomRotation(r, 45);
    rot[`${side}LowerLeg`] = fromAxisAngle([1, 0, 0], (30 + r() * 90) * DEG);
    rot[`${side}Foot`] = randomRotation(r, 30);
  }
  return rot;
}

/** Landmarks as the detector gives them: MediaPipe's frame (y down, z away), origin between the hips. */
function asDetected(L: BodyLandmarks): BodyLandmarks {
  const c = scale3(add3(L.leftHip, L.rightHip), 0.5);
  const flat: number[] = [];
  for (const name of POSE_LANDMARKS) {
    const p = sub3(L[name], c);
    flat.push(p[0], -p[1], -p[2]);
  }
  return bodyLandmarksFromFlat(flat);
}

const SOLVED_BONES: HumanBoneName[] = [
  'hips',
  'spine',
  'chest',
  'upperChest',
  'neck',
  'head',
  'leftUpperArm',
  'leftLowerArm',
  'leftHand',
  'rightUpperArm',
  'rightLowerArm',
  'rightHand',
  'leftUpperLeg',
  'leftLowerLeg',
  'leftFoot',
  'rightUpperLeg',
  'rightLowerLeg',
  'rightFoot',
];

const SEGMENTS: [string, (L: BodyLandmarks) => Vec3][] = (['left', 'right'] as const).flatMap((s) => {
  const g = (L: BodyLandmarks, n: string) => L[`${s}${n}` as keyof BodyLandmarks];
  return [
    [`${s} upper arm`, (L: BodyLandmarks) => sub3(g(L, 'Elbow'), g(L, 'Shoulder'))],
    [`${s} forearm`, (L: BodyLandmarks) => sub3(g(L, 'Wrist'), g(L, 'Elbow'))],
    [`${s} hand`, (L: BodyLandmarks) => sub3(scale3(add3(g(L, 'Index'), g(L, 'Pinky')), 0.5), g(L, 'Wrist'))],
    [`${s} thigh`, (L: BodyLandmarks) => sub3(g(L, 'Knee'), g(L, 'Hip'))],
    [`${s} shin`, (L: BodyLandmarks) => sub3(g(L, 'Ankle'), g(L, 'Knee'))],
    [`${s} foot`, (L: BodyLandmarks) => sub3(g(L, 'FootIndex'), g(L, 'Heel'))],
  ] as [string, (L: BodyLandmarks) => Vec3][];
});

function segmentErrors(truth: BodyLandmarks, solved: StandardPose): number[] {
  const back = landmarksOfPose(solved);
  return SEGMENTS.map(([, f]) => Math.acos(Math.min(1, dot3(normalize3(f(truth)), normalize3(f(back))))));
}

describe('body solver: landmarks to normalized rotations', () => {
  it('the T-pose gives identity rotations everywhere', () => {
    const solved = solveBody(asDetected(landmarksOfPose(standardFk({}))));
    for (const bone of SOLVED_BONES) expect(angleBetween(solved.rotations[bone]!, [0, 0, 0, 1]), bone).toBeLessThan(1e-6);
  });

  it('recovers 200 random rule-following poses bone by bone within 0.001°', () => {
    const r = rng(29);
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      const truth = rulePose(r);
      const solved = solveBody(asDetected(landmarksOfPose(standardFk(truth))));
      for (const bone of SOLVED_BONES) {
        const err = angleBetween(solved.rotations[bone]!, truth[bone]!);
        worst = Math.max(worst, err);
        if (err > 0.001 * DEG) throw new Error(`pose ${i}, ${bone}: ${(err / DEG).toFixed(4)}° off`);
      }
    }
    expect(worst / DEG).toBeLessThan(0.001);
  });

  it('any pose (bent spine, straight limbs, twisted forearms, hinged knees) comes back with the same limb directions within 0.001°', () => {
    const r = rng(7);
    let worst = 0;
    for (let i = 0; i < 200; i++) {
      const truth: Partial<Record<HumanBoneName, Quat>> = {};
      for (const bone of SOLVED_BONES) truth[bone] = randomRotation(r, bone.endsWith('Hand') || bone.endsWith('Foot') ? 35 : 60);
      // Knees are hinges (a foot is judged against its shin, so a twisted knee is not a pose the solver takes).
      truth.leftLowerLeg = fromAxisAngle([1, 0, 0], r() * 120 * DEG);
      truth.rightLowerLeg = fromAxisAngle([1, 0, 0], r() * 120 * DEG);
      // Every fourth pose has straight elbows and knees: the bend plane says nothing there.
      if (i % 4 === 0) { for (const b of ['leftLowerArm', 'rightLowerArm', 'leftLowerLeg', 'rightLowerLeg'] as const) truth[b] = [0, 0, 0, 1]; }
      const L = landmarksOfPose(standardFk(truth));
      const solved = solveBody(asDetected(L));
      const errs = segmentErrors(asDetected(L), standardFk(solved.rotations));
      worst = Math.max(worst, ...errs);
    }
    expect(worst / DEG).toBeLessThan(0.001);
  });

  it('a nearly straight elbow blends its twist smoothly between 10° and 25° of bend, with no jump', () => {
    const base = normalize(mul(fromAxisAngle([0, 0, 1], -60 * DEG), fromAxisAngle([1, 0, 0], 40 * DEG)));
    const solveAt = (bend: number) => solveBody(asDetected(landmarksOfPose(standardFk({ leftUpperArm: base, leftLowerArm: fromAxisAngle([0, -1, 0], bend * DEG) })))).rotations.leftUpperArm!;
    // Straight, the twist is the smallest turn from the chest; bent 25° or more, it is exact.
    const gap = angleBetween(solveAt(0), solveAt(40));
    expect(angleBetween(solveAt(30), base) / DEG).toBeLessThan(0.001);
    expect(gap / DEG).toBeGreaterThan(20);
    let worst = 0;
    for (let bend = 0.5; bend <= 40; bend += 0.5) worst = Math.max(worst, angleBetween(solveAt(bend - 0.5), solveAt(bend)));
    // A smoothstep over 15° of bend turns at most 1.5 × gap / 15° per degree (per half degree: half that); 5% margin for the arc's curvature.
    expect(worst).toBeLessThan(1.05 * 1.5 * (gap / 15) * 0.5);
  });
});

describe('body solver: readings a detector gets wrong', () => {
  const pose = () => rulePose(rng(11));
  /** The same landmarks with some labels swapped, or depth mirrored about the hips, as BlazePose misreads a figure. */
  function swap(L: BodyLandmarks, pairs: [keyof BodyLandmarks, keyof BodyLandmarks][]): BodyLandmarks {
    const out = { ...L } as Record<keyof BodyLandmarks, Vec3>;
    for (const [a, b] of pairs) [out[a], out[b]] = [L[b], L[a]];
    return out;
  }

  it('a face read as seen from behind (ears swapped) gives the same head as the true reading', () => {
    const truth = pose();
    const L = asDetected(landmarksOfPose(standardFk(truth)));
    const right = solveBody(L).rotations, wrong = solveBody(swap(L, [['leftEar', 'rightEar']])).rotations;
    expect(angleBetween(right.head!, wrong.head!) / DEG).toBeLessThan(0.001);
    expect(angleBetween(right.head!, truth.head!) / DEG).toBeLessThan(0.001);
  });

  it('a foot read pointing behind its shin is mirrored back to the front', () => {
    const truth: Partial<Record<HumanBoneName, Quat>> = { leftFoot: fromAxisAngle([0, 1, 0], 30 * DEG) };
    const L = asDetected(landmarksOfPose(standardFk(truth)));
    // Depth of the left foot's toe point mirrored about the heel: the toe now points backwards.
    const heel = L.leftHeel, toe = L.leftFootIndex;
    const bad = { ...L, leftFootIndex: [toe[0], toe[1], 2 * heel[2] - toe[2]] as Vec3 };
    const right = standardFk(solveBody(L).rotations), wrong = standardFk(solveBody(bad).rotations);
    const dir = (p: StandardPose) => normalize3(sub3(p.leftToes.position, p.leftFoot.position));
    expect(dir(right)[2]).toBeGreaterThan(0.5);
    expect(dir(wrong)[2]).toBeGreaterThan(0.5);
    // The misreading was the camera's depth (z here), so mirroring that back gives the true foot exactly.
    for (let c = 0; c < 3; c++) expect(Math.abs(dir(wrong)[c] - dir(right)[c])).toBeLessThan(1e-6);
  });
});
