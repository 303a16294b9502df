/**
 * Timeline markers: named times saved in the .vrma as glTF extras of the animation
 * (`animations[0].extras.vrmaStudioMarkers`, ignored by players), read back, and kept by every edit.
 * Edits that keep time keep the extras as they are (withChannels keeps the Motion's other fields);
 * edits that move time map the markers with `mapMarkers` (registry.ts: each edit's `markerTime`).
 * Join adds a marker at the boundary named after the joined part.
 */
import type { Motion } from './types';

export interface Marker {
  readonly time: number;
  readonly name: string;
  /** 'join' for the boundaries a join made, 'user' for markers added with M. */
  readonly kind: 'user' | 'join';
}

export const MARKERS_EXTRAS_KEY = 'vrmaStudioMarkers';
/** More than this many markers in a file are not read (a hostile file cannot make the UI draw millions). */
export const MAX_MARKERS = 1000;
const MAX_NAME = 200;

function extrasObject(motion: Motion): Record<string, unknown> | null {
  const e = motion.animationExtras;
  return e !== null && typeof e === 'object' && !Array.isArray(e) ? (e as Record<string, unknown>) : null;
}

/** The motion's markers in time order; malformed entries are skipped. */
export function markersOf(motion: Motion): Marker[] {
  const raw = extrasObject(motion)?.[MARKERS_EXTRAS_KEY];
  if (!Array.isArray(raw)) return [];
  const out: Marker[] = [];
  for (const m of raw.slice(0, MAX_MARKERS)) {
    if (m === null || typeof m !== 'object') continue;
    const { time, name, kind } = m as Record<string, unknown>;
    if (typeof time !== 'number' || !Number.isFinite(time) || time < 0) continue;
    out.push({ time, name: typeof name === 'string' ? name.slice(0, MAX_NAME) : '', kind: kind === 'join' ? 'join' : 'user' });
  }
  return out.sort((a, b) => a.time - b.time);
}

/** The motion with these markers (other extras kept; no markers key when there are none). */
export function withMarkers(motion: Motion, markers: readonly Marker[]): Motion {
  const extras: Record<string, unknown> = { ...(extrasObject(motion) ?? {}) };
  if (markers.length) extras[MARKERS_EXTRAS_KEY] = [...markers].sort((a, b) => a.time - b.time).map((m) => ({ time: m.time, name: m.name, kind: m.kind }));
  else delete extras[MARKERS_EXTRAS_KEY];
  const empty = Object.keys(extras).length === 0 && motion.animationExtras === undefined;
  return { ...motion, animationExtras: empty ? undefined : extras };
}

/** `out` with `source`'s markers moved by `map` (null drops a marker: its time was cut away). */
export function mapMarkers(source: Motion, out: Motion, map: (t: number) => number | null): Motion {
  const markers = markersOf(source);
  if (!markers.length) return out;
  const moved: Marker[] = [];
  for (const m of markers) {
    const t = map(m.time);
    if (t !== null && Number.isFinite(t) && t >= 0) moved.push({ ...m, time: t });
  }
  return withMarkers(out, moved);
}

/** "Marker N" with the smallest N no marker of the motion is named yet (M never makes two "Marker 1"). */
export function nextMarkerName(motion: Motion, name: (n: number) => string): string {
  const taken = new Set(markersOf(motion).map((m) => m.name));
  let n = 1;
  while (taken.has(name(n))) n++;
  return name(n);
}

/** The motion with marker `index` (of markersOf's order) changed; null as the change deletes it. */
export function changeMarker(motion: Motion, index: number, change: Partial<Pick<Marker, 'name' | 'time'>> | null): Motion {
  const markers = markersOf(motion);
  if (index < 0 || index >= markers.length) return motion;
  if (change === null) markers.splice(index, 1);
  else markers[index] = { ...markers[index], ...(change.name !== undefined ? { name: change.name.slice(0, MAX_NAME) } : {}), ...(change.time !== undefined ? { time: Math.max(0, change.time) } : {}) };
  return withMarkers(motion, markers);
}
