/** Ease in and out (smoothstep) of a linear progress in [0, 1]; clamps outside. */
export function easeInOut(u: number): number {
  const t = u <= 0 ? 0 : u >= 1 ? 1 : u;
  return t * t * (3 - 2 * t);
}
