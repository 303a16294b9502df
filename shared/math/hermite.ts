/**
 * glTF's cubic Hermite spline (glTF 2.0 Appendix C, CUBICSPLINE), the one basis every reader, player
 * and baker of cubic keys uses. A segment from key 0 to key 1 lasts dt seconds; tangents are per second
 * (glTF's meaning), so they are scaled by dt here. The arrays and offsets name where each key's value
 * and tangent live, which lets one function serve every layout: a Channel's separate value and tangent
 * arrays, and a glTF sampler's interleaved (in-tangent, value, out-tangent) triples.
 */

/** Writable numbers: typed arrays or a plain array. */
export type NumberSink = { [index: number]: number };

/**
 * The spline at s in [0, 1], component by component, into out[offset .. offset + size): p0 at
 * v0[i0 + k], p1 at v1[i1 + k], the first key's out-tangent at m0[j0 + k], the next key's in-tangent
 * at m1[j1 + k]. With `unit` (rotations) the result is normalized afterwards, as glTF plays
 * quaternions (three.js's GLTFCubicSplineQuaternionInterpolant).
 */
export function cubicHermite(
  v0: ArrayLike<number>,
  i0: number,
  m0: ArrayLike<number>,
  j0: number,
  v1: ArrayLike<number>,
  i1: number,
  m1: ArrayLike<number>,
  j1: number,
  size: number,
  dt: number,
  s: number,
  unit: boolean,
  out: NumberSink,
  offset: number,
): void {
  const s2 = s * s;
  const s3 = s2 * s;
  const h00 = 2 * s3 - 3 * s2 + 1;
  const h10 = s3 - 2 * s2 + s;
  const h01 = -2 * s3 + 3 * s2;
  const h11 = s3 - s2;
  let len = 0;
  for (let k = 0; k < size; k++) {
    const x = h00 * v0[i0 + k] + h10 * (m0[j0 + k] * dt) + h01 * v1[i1 + k] + h11 * (m1[j1 + k] * dt);
    out[offset + k] = x;
    len += x * x;
  }
  if (unit && len > 0) {
    const inv = 1 / Math.sqrt(len);
    for (let k = 0; k < size; k++) out[offset + k] *= inv;
  }
}

/** The derivative (per second) of the same spline at s, on components (before any normalizing). */
export function cubicHermiteSlope(
  v0: ArrayLike<number>,
  i0: number,
  m0: ArrayLike<number>,
  j0: number,
  v1: ArrayLike<number>,
  i1: number,
  m1: ArrayLike<number>,
  j1: number,
  size: number,
  dt: number,
  s: number,
  out: NumberSink,
  offset: number,
): void {
  const d00 = (6 * s * s - 6 * s) / dt;
  const d10 = 3 * s * s - 4 * s + 1;
  const d01 = -d00;
  const d11 = 3 * s * s - 2 * s;
  for (let k = 0; k < size; k++) out[offset + k] = d00 * v0[i0 + k] + d10 * m0[j0 + k] + d01 * v1[i1 + k] + d11 * m1[j1 + k];
}
