/** Ease in and out (smoothstep) of a linear progress in [0, 1]; clamps outside. */
export function easeInOut(u: number): number {
  const t = u <= 0 ? 0 : Math.min(u, 1);
  return t * t * (3 - 2 * t);
}
