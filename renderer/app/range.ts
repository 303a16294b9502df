/** IN/OUT range helpers: a range is valid when it has positive length inside the motion. */
export interface TimeRange {
  readonly start: number;
  readonly end: number;
}

export function normalizeRange(a: number, b: number, duration: number): TimeRange | null {
  const start = Math.max(0, Math.min(a, b));
  const end = Math.min(duration, Math.max(a, b));
  return end - start > 1e-6 ? { start, end } : null;
}

/** Sets IN (or OUT) at time t, keeping the other end; when the new end would cross, the other end moves to the motion's edge. */
export function setIn(range: TimeRange | null, t: number, duration: number): TimeRange | null {
  const end = range && range.end > t ? range.end : duration;
  return normalizeRange(t, end, duration);
}

export function setOut(range: TimeRange | null, t: number, duration: number): TimeRange | null {
  const start = range && range.start < t ? range.start : 0;
  return normalizeRange(start, t, duration);
}

/**
 * The range after an edit that moved time (issue 27): both ends go where the edit put those times,
 * so after Speed x0.5 on IN 1 / OUT 2 the range is 1-3 s and the next edit covers the whole stretched
 * part. An end the edit cut away (Delete range) leaves no range.
 */
export function mapRange(range: TimeRange | null, map: ((t: number) => number | null) | undefined, duration: number): TimeRange | null {
  if (!range || !map) return range;
  const start = map(range.start);
  const end = map(range.end);
  if (start === null || end === null || !Number.isFinite(start) || !Number.isFinite(end)) return null;
  return normalizeRange(start, end, duration);
}
