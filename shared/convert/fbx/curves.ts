/**
 * Evaluates an FBX animation curve at increasing times with a moving cursor: constant keys hold (their
 * own value, or the next key's for "constant next"),
 * linear keys interpolate, cubic keys follow the Hermite spline of their stored slopes (value per
 * second; tangent weights are not modelled). Before the first key the first value holds, after the
 * last the last.
 */
import { TICKS_PER_SECOND, type FbxCurve } from './sceneTypes';

export class CurveCursor {
  private i = 0;
  constructor(readonly curve: FbxCurve) {}

  /** Value at `ticks`; calls must not go back in time (reset() to start over). */
  at(ticks: number): number {
    const { times, values, interpolation, slopes } = this.curve;
    const n = times.length;
    if (n === 0) return this.curve.defaultValue;
    if (ticks <= times[0]) return values[0];
    if (ticks >= times[n - 1]) return values[n - 1];
    while (this.i + 1 < n && times[this.i + 1] <= ticks) this.i++;
    while (this.i > 0 && times[this.i] > ticks) this.i--;
    const i = this.i;
    const t0 = times[i], t1 = times[i + 1];
    const v0 = values[i], v1 = values[i + 1];
    const mode = interpolation[i];
    if (mode === 0 || t1 <= t0) return v0;
    if (mode === 3) return v1;
    const u = (ticks - t0) / (t1 - t0);
    if (mode === 1) return v0 + (v1 - v0) * u;
    const dt = (t1 - t0) / TICKS_PER_SECOND;
    const m0 = slopes[i * 2] * dt;
    const m1 = slopes[i * 2 + 1] * dt;
    const u2 = u * u, u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * v0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * v1 + (u3 - u2) * m1;
  }

  reset(): void {
    this.i = 0;
  }
}
