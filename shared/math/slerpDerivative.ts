/**
 * The slerp's derivative, for the glTF writer's Hermite tangents of a linear rotation segment
 * (vrma/samplerForm.ts): CUBICSPLINE tangents that follow the slerp at both ends.
 */

/** The slerp from a to b (b on a's hemisphere) at f, and its derivative per unit f. */
export function slerpWithDerivative(a: ArrayLike<number>, b: ArrayLike<number>, f: number, value: number[], slope: number[]): void {
  let dot = 0;
  for (let c = 0; c < 4; c++) dot += a[c] * b[c];
  dot = Math.min(1, dot);
  const omega = Math.acos(dot);
  if (omega < 1e-9) {
    for (let c = 0; c < 4; c++) {
      value[c] = a[c] + (b[c] - a[c]) * f;
      slope[c] = b[c] - a[c];
    }
    return;
  }
  const s = Math.sin(omega);
  const wa = Math.sin((1 - f) * omega) / s;
  const wb = Math.sin(f * omega) / s;
  const da = (-omega * Math.cos((1 - f) * omega)) / s;
  const db = (omega * Math.cos(f * omega)) / s;
  for (let c = 0; c < 4; c++) {
    value[c] = wa * a[c] + wb * b[c];
    slope[c] = da * a[c] + db * b[c];
  }
}
