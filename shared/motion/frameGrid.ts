/**
 * The one frame grid: keys 1/fps apart from `start`, and a last key at `end` itself when the end falls
 * between frames, so resampling never shortens a motion (a converter's --fps and the resample edit
 * agree on every key time).
 */
export function frameGrid(start: number, end: number, fps: number): Float32Array {
  const span = Math.max(0, end - start);
  const whole = Math.floor(span * fps + 1e-6);
  const offGrid = span - whole / fps > 1e-5;
  const times = new Float32Array(whole + 1 + (offGrid ? 1 : 0));
  for (let k = 0; k <= whole; k++) times[k] = start + k / fps;
  if (offGrid) times[whole + 1] = end;
  return times;
}
