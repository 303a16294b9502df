/**
 * Smooth periodic curves through designer keys (phase in [0, 1), value), for cyclic motions: a
 * Catmull-Rom spline that wraps around, so the value and its slope at phase 1 equal those at 0.
 */
export type PeriodicCurve = (phase: number) => number;

export function periodicCurve(keys: readonly (readonly [number, number])[]): PeriodicCurve {
  const sorted = [...keys].sort((a, b) => a[0] - b[0]);
  const n = sorted.length;
  // Key i of the infinite periodic sequence: phase shifted by whole periods.
  const phaseAt = (i: number) => sorted[((i % n) + n) % n][0] + Math.floor(i / n);
  const valueAt = (i: number) => sorted[((i % n) + n) % n][1];
  return (phase: number) => {
    let p = phase - Math.floor(phase);
    let base = -1;
    for (let k = 0; k < n && sorted[k][0] <= p; k++) base = k;
    if (base < 0) {
      // Before the first key: on the segment from the last key, one period later.
      base = n - 1;
      p += 1;
    }
    const a0 = phaseAt(base - 1), a1 = phaseAt(base), a2 = phaseAt(base + 1), a3 = phaseAt(base + 2);
    const v0 = valueAt(base - 1), v1 = valueAt(base), v2 = valueAt(base + 1), v3 = valueAt(base + 2);
    // Non-uniform Catmull-Rom tangents (finite differences over the neighbours' spacing).
    const m1 = (v2 - v0) / (a2 - a0);
    const m2 = (v3 - v1) / (a3 - a1);
    const h = a2 - a1;
    const s = (p - a1) / h;
    const s2 = s * s, s3 = s2 * s;
    return (2 * s3 - 3 * s2 + 1) * v1 + (s3 - 2 * s2 + s) * h * m1 + (-2 * s3 + 3 * s2) * v2 + (s3 - s2) * h * m2;
  };
}
