/**
 * fitLimbDepths on landmarks placed by our own forward kinematics and seen through a pinhole camera
 * built in the test: the image points are exact, the "detector's" world landmarks have the right
 * thigh's depth mostly flattened (the misreading the closed loop shows: a thigh swung toward the camera
 * read as hanging). The fit turns the thigh back toward the truth by up to MAX_DEPTH_TURN_DEG, keeps a
 * reading that already fits, and takes the far point when the detector says far; near the image
 * plane it may take the mirror, within the bound the perspective sets.
 */
import { describe, expect, it } from 'vitest';
import { fitLimbDepths, MAX_DEPTH_TURN_DEG } from '../../../shared/capture/limbDepth';
import { LANDMARK_INDEX as I, POSE_LANDMARKS, type PoseLandmarkName } from '../../../shared/capture/landmarks';
import { landmarksOfPose } from '../../../shared/capture/landmarkRig';
import { standardFk } from '../../../shared/vrm/standardFk';
import { fromAxisAngle } from '../../../shared/math/quat';
import { dot3, length3, normalize3, sub3 } from '../../../shared/math/vec3';
import type { Vec3 } from '../../../shared/motion/types';

const DEG = Math.PI / 180;
const CAM = { width: 640, height: 480, fovDeg: 45 };
const F = CAM.height / 2 / Math.tan((CAM.fovDeg * Math.PI) / 360);
/** The hips 3 m in front of the camera and 0.2 m above its axis (MediaPipe's axes: y down, z away). */
const HIPS_IN_CAMERA: Vec3 = [0, -0.2, 3];
const FOOT_OF_RIGHT_THIGH: PoseLandmarkName[] = ['rightKnee', 'rightAnkle', 'rightHeel', 'rightFootIndex'];

/** Truth in MediaPipe's world frame (around the hips' centre) and its exact image, for a right thigh swung `swingDeg` toward the camera (negative: away). */
function frame(swingDeg: number, kneeDeg: number): { world: number[]; image: number[] } {
  const pose = standardFk({ rightUpperLeg: fromAxisAngle([1, 0, 0], -swingDeg * DEG), rightLowerLeg: fromAxisAngle([1, 0, 0], kneeDeg * DEG) });
  const L = landmarksOfPose(pose);
  const c = L.leftHip.map((v, i) => (v + L.rightHip[i]) / 2);
  const world = POSE_LANDMARKS.flatMap((n) => [L[n][0] - c[0], -(L[n][1] - c[1]), -(L[n][2] - c[2])]);
  const image = POSE_LANDMARKS.flatMap((_, j) => {
    const p = [0, 1, 2].map((k) => world[j * 3 + k] + HIPS_IN_CAMERA[k]);
    return [(F * p[0]) / p[2] / CAM.width + 0.5, (F * p[1]) / p[2] / CAM.height + 0.5, 0];
  });
  return { world, image };
}

const at = (w: ArrayLike<number>, o: number, n: PoseLandmarkName): Vec3 => [w[o + I[n] * 3], w[o + I[n] * 3 + 1], w[o + I[n] * 3 + 2]];
const angle = (a: Vec3, b: Vec3) => Math.acos(Math.min(1, dot3(normalize3(a), normalize3(b)))) / DEG;
const thigh = (w: ArrayLike<number>, o: number) => sub3(at(w, o, 'rightKnee'), at(w, o, 'rightHip'));

/** The detector's misreading: the right thigh turned into the image plane about the hip (its length kept), the shin carried along. */
function flattenThigh(world: number[], keep = 0): number[] {
  const out = [...world];
  const hip = at(world, 0, 'rightHip'), d = thigh(world, 0);
  const flat = normalize3([d[0], d[1], d[2] * keep]);
  const knee = flat.map((v, k) => hip[k] + v * length3(d));
  const shift = knee.map((v, k) => v - world[I.rightKnee * 3 + k]);
  for (const n of FOOT_OF_RIGHT_THIGH) for (let k = 0; k < 3; k++) out[I[n] * 3 + k] += shift[k];
  return out;
}

function run(frames: { world: number[]; image: number[] }[], misread: (w: number[]) => number[]) {
  const world = Float64Array.from(frames.flatMap((f) => misread(f.world)));
  const before = Float64Array.from(world);
  fitLimbDepths(world, Float64Array.from(frames.flatMap((f) => f.image)), frames.length, CAM);
  return { before, after: world };
}

describe('fitLimbDepths', () => {
  // A thigh swung toward the camera over ten frames, the knee bent 20° throughout; the detector reads a
  // quarter of its depth (nearly hanging).
  const swings = Array.from({ length: 10 }, (_, k) => (25 * k) / 9);
  const frames = swings.map((s) => frame(s, 20));
  const misread = (w: number[]) => flattenThigh(w, 0.25);

  it('turns a thigh read as nearly hanging back toward the camera, at most MAX_DEPTH_TURN_DEG', () => {
    const { before, after } = run(frames, misread);
    swings.forEach((s, k) => {
      const truth = thigh(frames[k].world, 0);
      const was = angle(thigh(before, k * 99), truth), now = angle(thigh(after, k * 99), truth);
      if (s < 10) return;
      // Swung 11° and more: the misreading is removed up to the bound, within 0.5° (the hips' depth
      // comes from the torso's pixel size).
      expect(now).toBeLessThan(Math.max(0, was - MAX_DEPTH_TURN_DEG) + 0.5);
    });
    // The 25° swing (read 18.4° off) really is bounded: about 6° left, not fully undone.
    expect(angle(thigh(after, 9 * 99), thigh(frames[9].world, 0))).toBeGreaterThan(18 - MAX_DEPTH_TURN_DEG);
  });

  it("near the image plane the mirror can win, costing at most twice the ray's tilt", () => {
    // The knee's ray here is 4.2° off the optical axis, so the mirror of a swing under about 9° lies
    // as near "no depth" as the swing itself; the fit may take it. Measured: 8.3° read 6.2° off comes
    // back 8.3° off (the mirror), 5.6° read 4.2° off comes back 2.7° off.
    const { before, after } = run(frames, misread);
    swings.forEach((s, k) => {
      if (s >= 10) return;
      const truth = thigh(frames[k].world, 0);
      const was = angle(thigh(before, k * 99), truth), now = angle(thigh(after, k * 99), truth);
      expect(now).toBeLessThan(was + 2 * 4.2);
    });
  });

  it('leaves a reading that already fits its image where it is', () => {
    const { before, after } = run(frames, (w) => w);
    let worst = 0;
    for (let k = 0; k < frames.length; k++) {
      for (const n of POSE_LANDMARKS) worst = Math.max(worst, length3(sub3(at(after, k * 99, n), at(before, k * 99, n))));
    }
    // Metres: the hips' centre is placed from the torso's size in pixels, within a few millimetres here.
    expect(worst).toBeLessThan(0.005);
  });

  it('takes the far point when the detector reads the thigh behind the body', () => {
    // Swung 10° away from the camera, read 2° away: the far root, not its mirror 10° toward the camera.
    const away = Array.from({ length: 5 }, () => frame(-10, 20));
    const { after } = run(away, (w) => flattenThigh(w, 0.2));
    for (let k = 0; k < away.length; k++) {
      expect(angle(thigh(after, k * 99), thigh(away[k].world, 0))).toBeLessThan(0.5);
    }
  });
});
