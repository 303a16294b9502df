/**
 * The angle of the rotation between two unit quaternions stored in arrays, accurate for tiny angles
 * (2·acos(dot) loses half its digits near 0, and identical keys must give exactly 0).
 */
export function rotationAngle(a: ArrayLike<number>, ai: number, b: ArrayLike<number>, bi: number): number {
  const ax = a[ai], ay = a[ai + 1], az = a[ai + 2], aw = a[ai + 3];
  let bx = b[bi], by = b[bi + 1], bz = b[bi + 2], bw = b[bi + 3];
  if (ax * bx + ay * by + az * bz + aw * bw < 0) {
    bx = -bx; by = -by; bz = -bz; bw = -bw;
  }
  const dx = ax - bx, dy = ay - by, dz = az - bz, dw = aw - bw;
  const sx = ax + bx, sy = ay + by, sz = az + bz, sw = aw + bw;
  // |a - b| = 2 sin(φ/2), |a + b| = 2 cos(φ/2) for the 4D angle φ; the rotation angle is 2φ.
  return 4 * Math.atan2(Math.sqrt(dx * dx + dy * dy + dz * dz + dw * dw), Math.sqrt(sx * sx + sy * sy + sz * sz + sw * sw));
}
