/**
 * Limb depth from the image. BlazePose's world landmarks get the limbs' depth wrong in a way its
 * image landmarks do not: a thigh swung 20–35° toward the camera comes back hanging, an arm behind the
 * body at its side, while the joints' image points are where they are. A bone keeps its length
 * through a clip, so each limb bone's far joint is put back on its own camera ray at the bone's length
 * from its near joint (a pinhole camera of the capture's field of view, the hips' centre placed as
 * hipsPath places it): of the two points on the ray at that distance, the one on the side the
 * detector reads (pickRoot).
 *
 * How much this trusts the image is bounded: a limb turns at most MAX_DEPTH_TURN_DEG from the
 * detector's reading. The image's depth cue is the bone's foreshortening, a few per cent for 20°, which
 * a wrong field of view (a webcam's is a guess), a joint a few pixels off, a bone length off by a
 * centimetre or the hips' placement (1 cm at 4 m on exact landmarks) can fake, and a limb near the
 * image plane cannot be told from its mirror. Measured on the closed loop
 * (tests/e2e/capture-closed-loop.test.ts and eight other renderings of the same motion) a bound near
 * 12° kept the gain where the unbounded fit sometimes turned a limb the wrong way (limbs p95 up to
 * 33.9° against 28.4° without the fit); on exact landmarks the bound is also what it can cost
 * (captureMotion.test.ts: median 0.5°, max 12°).
 */
import { add3, cross3, dot3, length3, normalize3, scale3, sub3 } from '../math/vec3';
import { fromAxisAngle, rotateVec } from '../math/quat';
import type { Vec3 } from '../motion/types';
import { focalPixels, hipsInCamera, median, type CameraModel } from './hipsPath';
import { LANDMARK_INDEX as I, POSE_LANDMARK_COUNT, type PoseLandmarkName } from './landmarks';

/** The most a limb bone is turned away from the detector's reading (degrees). */
export const MAX_DEPTH_TURN_DEG = 12;

const N = POSE_LANDMARK_COUNT * 3;

interface LimbBone {
  readonly near: number;
  readonly far: number;
  /** The landmarks that move with the far joint (it and everything below it on the limb). */
  readonly carried: readonly number[];
  /** The same bone on the other side (its length is shared: a body is symmetric, a reading need not be). */
  readonly mirror: number;
}

type Side = 'left' | 'right';
const at = (side: Side, names: readonly string[]) => names.map((n) => I[`${side}${n}` as PoseLandmarkName]);
const HAND = ['Wrist', 'Pinky', 'Index', 'Thumb'] as const;
const FOOT = ['Ankle', 'Heel', 'FootIndex'] as const;
/** Parents before children on each limb: a bone's near joint is placed before its far one. */
const BONES: readonly LimbBone[] = (['left', 'right'] as const).flatMap((s, k) => [
  { near: at(s, ['Shoulder'])[0], far: at(s, ['Elbow'])[0], carried: at(s, ['Elbow', ...HAND]), mirror: 4 * (1 - k) + 0 },
  { near: at(s, ['Elbow'])[0], far: at(s, ['Wrist'])[0], carried: at(s, HAND), mirror: 4 * (1 - k) + 1 },
  { near: at(s, ['Hip'])[0], far: at(s, ['Knee'])[0], carried: at(s, ['Knee', ...FOOT]), mirror: 4 * (1 - k) + 2 },
  { near: at(s, ['Knee'])[0], far: at(s, ['Ankle'])[0], carried: at(s, FOOT), mirror: 4 * (1 - k) + 3 },
]);

const point = (a: ArrayLike<number>, o: number, j: number): Vec3 => [a[o + j * 3], a[o + j * 3 + 1], a[o + j * 3 + 2]];

function rayOf(image: Float64Array, o: number, j: number, cam: CameraModel, f: number): Vec3 {
  return normalize3([(image[o + j * 3] * cam.width - cam.width / 2) / f, (image[o + j * 3 + 1] * cam.height - cam.height / 2) / f, 1]);
}

/** Each limb bone's length: the median over the clip of the detector's, the two sides' averaged. */
function boneLengths(world: Float64Array, count: number): number[] {
  const own = BONES.map((b) => median(Array.from({ length: count }, (_, k) => length3(sub3(point(world, k * N, b.far), point(world, k * N, b.near))))));
  return BONES.map((b, i) => (own[i] + own[b.mirror]) / 2);
}

/**
 * Of the two distances along the far joint's ray (whose depth component is `rayZ`), the one on the
 * side of the near joint (nearer or farther from the camera) the detector reads it on, and of two on
 * that side the one nearer the detector's depth. The side, not the nearest depth: the detector's
 * misreading pulls a limb toward the image plane, and at the edge of the frame's perspective the
 * mirror of a limb swung 10° toward the camera lies nearer to "no depth" than the limb itself.
 */
function pickRoot(t1: number, t2: number, rayZ: number, nearZ: number, seenZ: number): number {
  const side = Math.sign(seenZ - nearZ);
  const s1 = Math.sign(t1 * rayZ - nearZ) === side, s2 = Math.sign(t2 * rayZ - nearZ) === side;
  if (s1 !== s2) return s1 ? t1 : t2;
  return Math.abs(t1 * rayZ - seenZ) <= Math.abs(t2 * rayZ - seenZ) ? t1 : t2;
}

/** `from` turned toward `to` by at most `maxRad`, at `to`'s length. */
function turnToward(from: Vec3, to: Vec3, maxRad: number): Vec3 {
  const angle = Math.acos(Math.min(1, Math.max(-1, dot3(normalize3(from), normalize3(to)))));
  if (angle <= maxRad) return to;
  const axis = cross3(from, to);
  if (length3(axis) < 1e-12) return to;
  return scale3(rotateVec(fromAxisAngle(normalize3(axis), maxRad), normalize3(from)), length3(to));
}

/**
 * Refits, in place, the limbs' depth of `count` frames of MediaPipe world landmarks (99 numbers a
 * frame, metres around the hips, y down, z away) from their image landmarks (99 numbers a frame, 0..1)
 * seen through `cam`.
 */
export function fitLimbDepths(world: Float64Array, image: Float64Array, count: number, cam: CameraModel): void {
  if (count === 0) return;
  const f = focalPixels(cam);
  const lengths = boneLengths(world, count);
  const maxRad = (MAX_DEPTH_TURN_DEG * Math.PI) / 180;
  for (let k = 0; k < count; k++) {
    const o = k * N;
    const hips = hipsInCamera({ world: world.subarray(o, o + N), image: image.subarray(o, o + N) }, cam, f);
    if (!hips.every(Number.isFinite) || !(hips[2] > 0)) continue;
    // The frame in the camera's space: world landmarks are centred on the hips.
    const cam3 = new Float64Array(N);
    for (let i = 0; i < N; i++) cam3[i] = world[o + i] + hips[i % 3];
    BONES.forEach((b, i) => {
      const L = lengths[i];
      if (!(L > 0)) return;
      const near = point(cam3, 0, b.near), seen = point(cam3, 0, b.far);
      const ray = rayOf(image, o, b.far, cam, f);
      // Points t·ray at distance L from the near joint: t² − 2t(ray·near) + |near|² − L² = 0.
      const along = dot3(ray, near);
      const s = Math.sqrt(Math.max(0, along * along - dot3(near, near) + L * L));
      const t = pickRoot(along - s, along + s, ray[2], near[2], seen[2]);
      const fitted = scale3(ray, t);
      const bone = turnToward(sub3(seen, near), sub3(fitted, near), maxRad);
      const shift = sub3(add3(near, bone), seen);
      for (const j of b.carried) for (let c = 0; c < 3; c++) cam3[j * 3 + c] += shift[c];
    });
    for (let i = 0; i < N; i++) world[o + i] = cam3[i] - hips[i % 3];
  }
}
