/**
 * The One-Euro filter (Casiez, Roussel and Vogel, CHI 2012): a low-pass filter whose cut-off rises
 * with the signal's speed, so a still landmark stops jittering and a fast one does not lag. Applied to
 * every coordinate of every landmark before the solver, on the frames' own times (a video's frames
 * need not be evenly spaced).
 */
export interface OneEuroParams {
  /** Cut-off at rest, Hz: lower is smoother when still. */
  readonly minCutoff: number;
  /** How fast the cut-off rises with speed (per unit/s): higher lags less when moving. */
  readonly beta: number;
  /** Cut-off of the speed estimate, Hz. */
  readonly dCutoff: number;
}

export const DEFAULT_ONE_EURO: OneEuroParams = { minCutoff: 1.5, beta: 2, dCutoff: 1 };

const alpha = (cutoff: number, dt: number) => 1 / (1 + 1 / (2 * Math.PI * cutoff * dt));

/**
 * Filters `width` interleaved signals sampled at `times` (values.length = times.length * width) and
 * returns the filtered copy. NaN samples (a landmark the detector lost) are passed through and do not
 * disturb the state.
 */
export function oneEuro(times: ArrayLike<number>, values: ArrayLike<number>, width: number, p: OneEuroParams = DEFAULT_ONE_EURO): Float64Array {
  const out = Float64Array.from(values as ArrayLike<number>);
  for (let c = 0; c < width; c++) {
    let x = NaN, dx = 0, tPrev = NaN;
    for (let i = 0; i < times.length; i++) {
      const v = values[i * width + c];
      if (!Number.isFinite(v)) continue;
      const dt = times[i] - tPrev;
      if (!Number.isFinite(x) || !(dt > 0)) {
        x = v;
        dx = 0;
      } else {
        const rawDx = (v - x) / dt;
        dx += alpha(p.dCutoff, dt) * (rawDx - dx);
        x += alpha(p.minCutoff + p.beta * Math.abs(dx), dt) * (v - x);
      }
      tPrev = times[i];
      out[i * width + c] = x;
    }
  }
  return out;
}
