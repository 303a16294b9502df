/**
 * Whole-track conversions between the file's node space and the avatar's normalized space, on typed
 * arrays. Rotations: n = P·q·W⁻¹ (see vrma/restPose). Hips position: the hips parent's world matrix
 * takes the file translation to world metres; the hips height scale is a uniform factor on top and
 * cancels wherever an edit goes to world space and back, so it is left to the callers that need it.
 */
import type { Mat4, Motion, Quat, RestBone, Vec3 } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { fail } from '../errors';
import { conj, IDENTITY, sandwichAll, type QuatArray } from '../math/quat';
import { fromNormalized } from './restPose';

/** File rotations of one bone -> normalized rotations (P·q·W⁻¹). */
export function rotationsToNormalized(values: QuatArray, bone: RestBone): Float64Array {
  return sandwichAll(values, bone.parentWorld, conj(bone.world), new Float64Array(values.length));
}

/** Normalized rotations -> file rotations of one bone (P⁻¹·n·W), ready to store. */
export function rotationsFromNormalized(values: QuatArray, bone: RestBone): Float32Array {
  return sandwichAll(values, conj(bone.parentWorld), bone.world, new Float32Array(values.length));
}

/** The file rotation that means "normalized identity" for a bone: what an untracked bone shows. */
export function restRotation(motion: Motion, bone: HumanBoneName): Quat {
  return fromNormalized(IDENTITY, requireRestBone(motion, bone));
}

export function requireRestBone(motion: Motion, bone: HumanBoneName): RestBone {
  const rb = motion.rest.bones[bone];
  if (!rb) fail('BAD_PARAMETER', 'motion.noBone', { bone });
  return rb;
}

/** Applies the affine part of a column-major matrix to every xyz triple. */
export function transformPoints<T extends Float32Array | Float64Array>(values: ArrayLike<number>, m: Mat4, out: T): T {
  for (let i = 0; i < values.length; i += 3) {
    const x = values[i], y = values[i + 1], z = values[i + 2];
    out[i] = m[0] * x + m[4] * y + m[8] * z + m[12];
    out[i + 1] = m[1] * x + m[5] * y + m[9] * z + m[13];
    out[i + 2] = m[2] * x + m[6] * y + m[10] * z + m[14];
  }
  return out;
}

/** Inverse of an affine column-major matrix; a singular matrix (zero scale in a bad file) is refused. */
export function invertAffine(m: Mat4): Mat4 {
  const a = m[0], b = m[4], c = m[8];
  const d = m[1], e = m[5], f = m[9];
  const g = m[2], h = m[6], k = m[10];
  const A = e * k - f * h, B = -(d * k - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!(Math.abs(det) > 1e-12) || !Number.isFinite(det)) fail('BAD_DATA', 'motion.singularHipsParent');
  const inv = 1 / det;
  const r00 = A * inv, r01 = -(b * k - c * h) * inv, r02 = (b * f - c * e) * inv;
  const r10 = B * inv, r11 = (a * k - c * g) * inv, r12 = -(a * f - c * d) * inv;
  const r20 = C * inv, r21 = -(a * h - b * g) * inv, r22 = (a * e - b * d) * inv;
  const tx = m[12], ty = m[13], tz = m[14];
  return [
    r00,
    r10,
    r20,
    0,
    r01,
    r11,
    r21,
    0,
    r02,
    r12,
    r22,
    0,
    -(r00 * tx + r01 * ty + r02 * tz),
    -(r10 * tx + r11 * ty + r12 * tz),
    -(r20 * tx + r21 * ty + r22 * tz),
    1,
  ];
}

/** File hips translations -> world positions (the hips parent's world matrix applied). */
export function hipsToWorld(values: ArrayLike<number>, motion: Motion): Float64Array {
  return transformPoints(values, motion.rest.hipsParentWorld, new Float64Array(values.length));
}

/** World hips positions -> file translations, ready to store. */
export function hipsFromWorld(values: ArrayLike<number>, motion: Motion): Float32Array {
  return transformPoints(values, invertAffine(motion.rest.hipsParentWorld), new Float32Array(values.length));
}

/** A world-space displacement -> the matching displacement of the file's hips translation. */
export function hipsDeltaFromWorld(delta: Vec3, motion: Motion): Vec3 {
  const inv = invertAffine(motion.rest.hipsParentWorld);
  const [x, y, z] = delta;
  return [inv[0] * x + inv[4] * y + inv[8] * z, inv[1] * x + inv[5] * y + inv[9] * z, inv[2] * x + inv[6] * y + inv[10] * z];
}
