/**
 * The gaze from the refined face's irises (shared/capture/gazeSolver) and as lookAt keys of a capture
 * (faceTracks): faces built in the test with known eye corners and iris offsets, the expected angles
 * worked out by hand (asin of the offset times 2.5), tolerances stated per check.
 */
import { describe, expect, it } from 'vitest';
import { calibrateGaze, gazeAngles, IRIS_POINTS, measureGaze, REFINED_FACE_LANDMARK_COUNT } from '../../../shared/capture/gazeSolver';
import { FACE_LANDMARK_COUNT, FACE_POINTS } from '../../../shared/capture/faceSolver';
import { faceTracks } from '../../../shared/capture/handFaceTracks';
import { lookAtRotation, yawPitchOf } from '../../../shared/edits/lookAtKeys';
import type { DetectedFrame } from '../../../shared/capture/landmarks';
import type { Vec3 } from '../../../shared/motion/types';

const W = 640, H = 480;
const DEG = 180 / Math.PI;

/**
 * A refined face in pixels (image axes, y down): eyes 40 px wide, irises moved by `gaze` eye widths
 * (+x to the subject's left, the image's right; +y up), the eyes `lid` px open.
 */
function face(o: { gaze?: [number, number]; lid?: number; count?: number } = {}): Vec3[] {
  const pts: Vec3[] = Array.from({ length: o.count ?? REFINED_FACE_LANDMARK_COUNT }, () => [320, 220, 0]);
  const [gx, gy] = o.gaze ?? [0, 0];
  const { leftEye: L, rightEye: R, mouth: M, cheeks: C } = FACE_POINTS;
  const lid = o.lid ?? 12;
  for (const [eye, iris, cx] of [[L, IRIS_POINTS.left, 360], [R, IRIS_POINTS.right, 280]] as const) {
    const outer = cx === 360 ? 380 : 260, inner = cx === 360 ? 340 : 300;
    pts[eye.outer] = [outer, 180, 0];
    pts[eye.inner] = [inner, 180, 0];
    pts[eye.upper] = [cx, 180 - lid / 2, 0];
    pts[eye.lower] = [cx, 180 + lid / 2, 0];
    if (iris < pts.length) pts[iris] = [cx + gx * 40, 180 - gy * 40, 0];
  }
  pts[M.left] = [360, 260, 0];
  pts[M.right] = [280, 260, 0];
  pts[M.upper] = [320, 260, 0];
  pts[M.lower] = [320, 260, 0];
  pts[C.left] = [420, 210, 0];
  pts[C.right] = [220, 210, 0];
  return pts;
}
/** As the solver sees them (fromMediaPipeWorld: y up). */
const solverPoints = (pts: Vec3[]): Vec3[] => pts.map(([x, y, z]) => [x, -y, -z]);
/** As a detected frame carries them (0..1 of the frame, z in widths). */
const flat = (pts: Vec3[]) => pts.flatMap((p) => [p[0] / W, p[1] / H, p[2] / W]);

describe('gaze from the irises', () => {
  it('measures each iris against its eye, both averaged; a plain 468-point face has no gaze', () => {
    expect(measureGaze(solverPoints(face()))).toEqual({ x: 0, y: 0 });
    const m = measureGaze(solverPoints(face({ gaze: [0.1, -0.05] })))!;
    expect(m.x).toBeCloseTo(0.1, 12);
    expect(m.y).toBeCloseTo(-0.05, 12);
    expect(measureGaze(solverPoints(face({ count: FACE_LANDMARK_COUNT })))).toBeNull();
  });

  it('reads the same with the head tilted in the image and at any size (within 1e-9)', () => {
    const pts = solverPoints(face({ gaze: [0.12, 0.04] }));
    const a = 0.5, s = 1.8;
    const turned = pts.map(([x, y, z]) => [s * (x * Math.cos(a) - y * Math.sin(a)), s * (x * Math.sin(a) + y * Math.cos(a)), z] as Vec3);
    const got = measureGaze(turned)!;
    expect(got.x).toBeCloseTo(0.12, 9);
    expect(got.y).toBeCloseTo(0.04, 9);
  });

  it("angles against the clip's median: asin(2.5 × offset), yaw + to the subject's left, pitch + down", () => {
    const neutral = calibrateGaze([{ x: 0.02, y: 0 }, { x: 0.02, y: 0.01 }, { x: 0.3, y: 0.2 }]);
    expect(neutral).toEqual({ x: 0.02, y: 0.01 });
    const left = gazeAngles({ x: 0.12, y: 0.01 }, neutral);
    expect(left.yaw).toBeCloseTo(Math.asin(0.25) * DEG, 9); // 14.48°
    expect(left.pitch).toBeCloseTo(0, 12);
    const down = gazeAngles({ x: 0.02, y: -0.09 }, neutral);
    expect(down.pitch).toBeCloseTo(Math.asin(0.25) * DEG, 9);
    // Beyond the eyeball's reach the angle stops at 90°, not NaN.
    expect(gazeAngles({ x: 5, y: 0.01 }, neutral).yaw).toBe(90);
  });

  it('a capture keys the lookAt node where the eyes are open: looks left and right come back, blinks get no key', () => {
    const gazeOf = (i: number): [number, number] => (i === 4 ? [0.1, 0] : i === 8 ? [-0.1, 0] : i === 11 ? [0, 0.06] : [0, 0]);
    const frames: DetectedFrame[] = Array.from({ length: 15 }, (_, i) => ({ time: i / 10, face: flat(face({ gaze: gazeOf(i), lid: i === 6 ? 0 : 12 })) }));
    const keyTimes = Float32Array.from(frames, (f) => f.time);
    const { lookAt, expressions } = faceTracks(frames, keyTimes, { width: W, height: H });
    expect(expressions.blinkLeft!.values[6]).toBe(1);
    expect(lookAt).toBeDefined();
    // The blink (frame 6) has no gaze key; the other 14 do.
    expect(Array.from(lookAt!.times, (t) => Math.round(t * 10))).toEqual([0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14]);
    const at = (frame: number) => {
      const k = Array.from(lookAt!.times).findIndex((t) => Math.abs(t - frame / 10) < 1e-6);
      return yawPitchOf(Array.from(lookAt!.values.subarray(k * 4, k * 4 + 4)) as [number, number, number, number]);
    };
    const want = Math.asin(0.25) * DEG;
    expect(at(4).yaw).toBeCloseTo(want, 3);
    expect(at(8).yaw).toBeCloseTo(-want, 3);
    expect(at(11).pitch).toBeCloseTo(-Math.asin(0.15) * DEG, 3);
    expect(Math.abs(at(0).yaw) + Math.abs(at(0).pitch)).toBeLessThan(1e-4);
    // The keys are lookAt rotations as the studio's gaze keys write them (float32 values: 1e-6).
    const q = lookAtRotation(want, 0);
    Array.from(lookAt!.values.subarray(4 * 4, 4 * 4 + 4)).forEach((v, i) => expect(v).toBeCloseTo(q[i], 6));
  });

  it('a plain face (468 landmarks) gives expressions but no gaze', () => {
    const frames: DetectedFrame[] = Array.from({ length: 5 }, (_, i) => ({ time: i / 10, face: flat(face({ count: FACE_LANDMARK_COUNT })) }));
    const r = faceTracks(frames, Float32Array.from(frames, (f) => f.time), { width: W, height: H });
    expect(r.lookAt).toBeUndefined();
    expect(r.expressions.blinkLeft).toBeDefined();
  });
});
