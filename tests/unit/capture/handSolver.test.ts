/**
 * The hand solver recovers finger poses from 21 landmarks placed by our own forward kinematics
 * (shared/vrm/standardFk through the hand rig): bent fingers, straight and overstretched ones, the
 * thumb, on both hands, with the arm and hand anywhere, in MediaPipe's frame at any scale.
 * Tolerance: 1e-4 rad on rotations (float64 throughout; what remains is rounding).
 */
import { describe, expect, it } from 'vitest';
import { standardFk } from '../../../shared/vrm/standardFk';
import { solveHand } from '../../../shared/capture/handSolver';
import { DIGITS, FINGER_BONES, handLandmarksFromFlat, handLandmarksOfPose, REST_HANDS, type HandSide } from '../../../shared/capture/handLandmarks';
import { angleBetween, fromAxisAngle, fromUnitVectors, mul, normalize, rotateVec } from '../../../shared/math/quat';
import { normalize3, sub3 } from '../../../shared/math/vec3';
import type { Quat, Vec3 } from '../../../shared/motion/types';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';

const DEG = Math.PI / 180;
const TOL = 1e-4;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}
const randomAxis = (r: () => number): Vec3 => normalize3([r() - 0.5, r() - 0.5, r() - 0.5]);
const randomRotation = (r: () => number, maxDeg: number): Quat => fromAxisAngle(randomAxis(r), (r() * 2 - 1) * maxDeg * DEG);

/** A swing: the smallest turn taking the bone's rest direction somewhere within maxDeg of it. */
function swing(r: () => number, restDir: Vec3, maxDeg: number): Quat {
  const turned = fromAxisAngle(randomAxis(r), r() * maxDeg * DEG);
  return fromUnitVectors(restDir, normalize3(rotateVec(turned, restDir)));
}

const restDir = (side: HandSide, i: number, j: number): Vec3 => normalize3(sub3(REST_HANDS[side][j], REST_HANDS[side][i]));
const curl = (side: HandSide, deg: number): Quat => fromAxisAngle(side === 'left' ? [0, 0, -1] : [0, 0, 1], deg * DEG);

type Pose = Partial<Record<HumanBoneName, Quat>>;

/** Arms and hands anywhere, every finger bent enough at its middle joint for its plane to show. */
function bentPose(r: () => number): Pose {
  const pose: Pose = { hips: randomRotation(r, 60), spine: randomRotation(r, 20) };
  for (const side of ['left', 'right'] as const) {
    pose[`${side}UpperArm`] = randomRotation(r, 70);
    pose[`${side}LowerArm`] = randomRotation(r, 70);
    pose[`${side}Hand`] = randomRotation(r, 60);
    for (const d of DIGITS) {
      const [a, b, c, tip] = d.landmarks;
      const [b0, b1, b2] = d.bones.map((n) => `${side}${n}` as HumanBoneName);
      if (d.digit === 'Thumb') {
        pose[b0] = swing(r, restDir(side, a, b), 40);
        pose[b1] = swing(r, restDir(side, b, c), 40);
        pose[b2] = swing(r, restDir(side, c, tip), 50);
      } else {
        // Any proximal rotation (spread, curl and a twist) once the next joint bends 30° or more.
        pose[b0] = normalize(mul(fromAxisAngle([0, 1, 0], (r() * 2 - 1) * 15 * DEG), mul(curl(side, r() * 80), randomRotation(r, 10))));
        pose[b1] = curl(side, 30 + r() * 70);
        pose[b2] = curl(side, r() * 60);
      }
    }
  }
  return pose;
}

function expectRecovered(pose: Pose, solved: Partial<Record<HumanBoneName, Quat>>, bones: readonly HumanBoneName[]): number {
  let worst = 0;
  for (const bone of bones) {
    const err = angleBetween(solved[bone]!, pose[bone] ?? [0, 0, 0, 1]);
    worst = Math.max(worst, err);
    expect(err, bone).toBeLessThan(TOL);
  }
  return worst;
}

describe('hand solver', () => {
  it('the rest pose gives identity on every finger bone of both hands', () => {
    for (const side of ['left', 'right'] as const) {
      const { rotations } = solveHand(side, REST_HANDS[side]);
      expectRecovered({}, rotations, FINGER_BONES.filter((b) => b.startsWith(side)));
    }
  });

  it('bent fingers and the thumb come back exactly, with the arm and hand anywhere (40 poses, both hands)', () => {
    const r = rng(29);
    let worst = 0;
    for (let k = 0; k < 40; k++) {
      const pose = bentPose(r);
      const fk = standardFk(pose);
      for (const side of ['left', 'right'] as const) {
        const { rotations } = solveHand(side, handLandmarksOfPose(fk, side));
        worst = Math.max(worst, expectRecovered(pose, rotations, FINGER_BONES.filter((b) => b.startsWith(side))));
      }
    }
    expect(worst).toBeLessThan(TOL);
  });

  it('reads MediaPipe world landmarks (y down, z away, centred on the wrist, any scale) the same', () => {
    const r = rng(7);
    const pose = bentPose(r);
    const pts = handLandmarksOfPose(standardFk(pose), 'right');
    const flat = pts.flatMap((p) => [1.7 * (p[0] - pts[0][0]), -1.7 * (p[1] - pts[0][1]), -1.7 * (p[2] - pts[0][2])]);
    const { rotations } = solveHand('right', handLandmarksFromFlat(flat));
    expectRecovered(pose, rotations, FINGER_BONES.filter((b) => b.startsWith('right')));
  });

  it('a straight finger takes the smallest turn from the hand; an overstretched one is not turned half round', () => {
    for (const side of ['left', 'right'] as const) {
      const r = rng(side === 'left' ? 3 : 4);
      for (let k = 0; k < 10; k++) {
        const pose: Pose = { [`${side}Hand`]: randomRotation(r, 90) };
        for (const d of DIGITS.slice(1)) {
          const [a, b] = d.landmarks;
          const [b0, b1] = d.bones.map((n) => `${side}${n}` as HumanBoneName);
          pose[b0] = swing(r, restDir(side, a, b), 60);
          // Straight (0°) on even poses, bent 20° backwards on odd ones.
          pose[b1] = curl(side, k % 2 ? -20 : 0);
        }
        const { rotations } = solveHand(side, handLandmarksOfPose(standardFk(pose), side));
        expectRecovered(pose, rotations, FINGER_BONES.filter((b) => b.startsWith(side) && !b.includes('Thumb')));
      }
    }
  });

  it('says what is wrong with a short landmark list', () => {
    expect(() => solveHand('left', REST_HANDS.left.slice(0, 20))).toThrow(/21 landmarks, got 20/);
  });
});
