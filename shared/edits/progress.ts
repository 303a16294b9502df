/**
 * How much of a long edit is done, for the studio's progress bar: an optional callback the edit calls
 * with a fraction from 0 to 1, never decreasing. The edits stay pure functions (the callback only
 * hears about the work; it cannot change it), and without one they behave exactly as before.
 */

/** Called with the fraction done (0..1, never decreasing). */
export type Progress = (done: number) => void;

/** The span [from, to] of a parent's progress, for one phase of an edit; undefined without a parent. */
export function phase(progress: Progress | undefined, from: number, to: number): Progress | undefined {
  if (!progress) return undefined;
  return (done) => progress(from + (to - from) * Math.min(1, Math.max(0, done)));
}

/**
 * Progress over a list of items of known sizes (a motion's tracks by key count): `done(i)` after item
 * i, so a long track moves the bar more than a short one. A no-op without a parent.
 */
export function bySize(progress: Progress | undefined, sizes: readonly number[]): (index: number) => void {
  if (!progress) return () => {};
  const total = sizes.reduce((s, x) => s + x, 0) || 1;
  let sum = 0;
  let last = -1;
  return (index) => {
    if (index <= last) return;
    for (let i = last + 1; i <= index; i++) sum += sizes[i] ?? 0;
    last = index;
    progress(Math.min(1, sum / total));
  };
}
