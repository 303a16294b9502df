/**
 * Edits on a time range [from, to] (the studio's IN/OUT selection, the CLI's --from/--to). Two ways:
 *
 * - blendInRange: the edit keeps time (smooth, mirror, in place, strip, optimize, resample, reverse of
 *   the part). Inside the range the result is the edited motion, faded in and out over `blend`
 *   seconds at the borders (smoothstep, slerp for rotations), so there is no jump; the border blend
 *   lies inside the range. Every key before `from` and after `to` is copied bit for bit, the keys at
 *   `from` and `to` are the original's (its own key when it has one there, else its interpolated value).
 * - replaceSegment: the edit changes the part's length (speed, fix outliers). The part is cut out
 *   (keepRange), edited, and put back; what follows moves in time by the change in length and keeps
 *   its values bit for bit.
 *
 * A track the edit removed (strip) counts as its rest value inside the range; one it created (mirror
 * onto a bone without a track) starts and ends at the rest value. Tracks the edit left alone are shared.
 */
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { componentsOf, durationOf, withChannels } from '../motion/types';
import { slerpFlat } from '../math/quat';
import { sampleChannel } from '../vrma/sample';
import { requireRange } from './params';
import { KeyBuffer, lowerBound, splicedChannel } from './keyBuffer';
import { smoothstep } from './splice';
import { cutToRange } from './keepRange';
import { restValue } from './keySelection';

/** The studio's fade at each border of a range edit, seconds (at most a quarter of the range). */
export const RANGE_BLEND = 0.1;
/** Blend zones get keys at least this often, so the smoothstep is not a straight line. */
const BLEND_RATE = 30;

export interface TimeRangeArg {
  readonly from: number;
  readonly to: number;
}

/** The range checked against the motion and clamped into it. */
export function checkedRange(motion: Motion, range: TimeRangeArg): TimeRangeArg {
  const d = durationOf(motion);
  requireRange(range.from, range.to, d);
  return { from: Math.max(0, range.from), to: Math.min(range.to, d) };
}

export function borderBlend(range: TimeRangeArg, blend = RANGE_BLEND): number {
  return Math.max(0, Math.min(blend, (range.to - range.from) / 4));
}

type Sampler = (t: number, out: Float64Array) => void;

function samplerOf(motion: Motion, channel: Channel | undefined, node: number, path: ChannelPath): Sampler {
  if (channel) return (t, out) => void sampleChannel(channel, t, out);
  const rest = restValue(motion, node, path);
  return (_t, out) => out.set(rest);
}

const keyOf = (c: Channel) => `${c.node}/${c.path}`;

function pushOriginalAt(buf: KeyBuffer, channel: Channel | undefined, sample: Sampler, tf: number, scratch: Float64Array): void {
  if (channel) {
    const i = lowerBound(channel.times, tf);
    if (i < channel.times.length && channel.times[i] === tf) {
      buf.pushRange(channel.times, channel.values, i, i + 1, 0);
      return;
    }
  }
  sample(tf, scratch);
  buf.push(tf, scratch);
}

function blendChannel(
  original: Motion,
  orig: Channel | undefined,
  edit: Channel | undefined,
  node: number,
  path: ChannelPath,
  from: number,
  to: number,
  blend: number,
): Channel {
  const size = componentsOf(path);
  const fromF = Math.fround(from);
  const toF = Math.fround(to);
  const so = samplerOf(original, orig, node, path);
  const se = samplerOf(original, edit, node, path);
  // The keys outside the range are the original's (splicedChannel copies them); the buffer holds the range.
  const head = orig ? lowerBound(orig.times, fromF) : 0;
  const buf = new KeyBuffer(size, (edit ? lowerBound(edit.times, toF) - lowerBound(edit.times, fromF) : 0) + 16);
  const scratch = new Float64Array(size);
  pushOriginalAt(buf, orig, so, fromF, scratch);

  // Inner key times: the edited keys, plus (in the blend zones) the original's keys and a grid.
  const inner: number[] = [];
  const addKeys = (c: Channel | undefined, a: number, b: number) => {
    if (!c) return;
    for (let i = lowerBound(c.times, a); i < c.times.length && c.times[i] < b; i++) if (c.times[i] > fromF && c.times[i] < toF) inner.push(c.times[i]);
  };
  addKeys(edit, fromF, toF);
  if (blend > 0) {
    addKeys(orig, fromF, from + blend);
    addKeys(orig, to - blend, toF);
    const steps = Math.max(2, Math.ceil(blend * BLEND_RATE));
    for (let k = 1; k < steps; k++) inner.push(from + (blend * k) / steps, to - (blend * k) / steps);
  }
  inner.sort((a, b) => a - b);
  const a = new Float64Array(size);
  const b = new Float64Array(size);
  const mixed = new Float64Array(size);
  let last = fromF;
  for (const t of inner) {
    if (!(t > last) || !(t < toF)) continue;
    last = t;
    const w = blend > 0 ? Math.min(smoothstep((t - from) / blend), smoothstep((to - t) / blend)) : 1;
    se(t, b);
    if (w >= 1) {
      buf.push(t, b);
      continue;
    }
    so(t, a);
    if (size === 4) slerpFlat(mixed, 0, a, 0, b, 0, w);
    else for (let c = 0; c < size; c++) mixed[c] = a[c] + (b[c] - a[c]) * w;
    buf.push(t, mixed);
  }
  pushOriginalAt(buf, orig, so, toF, scratch);
  if (!orig) return buf.toChannel(node, path);
  const after = lowerBound(orig.times, toF);
  const start = after < orig.times.length && orig.times[after] === toF ? after + 1 : after;
  return splicedChannel(orig, head, buf, start, 0);
}

/** `edited` inside [from, to] (faded in and out over `blend` s), `original` outside it, to the bit. */
export function blendInRange(original: Motion, edited: Motion, range: TimeRangeArg, blend: number): Motion {
  const { from, to } = range;
  const editedByKey = new Map(edited.channels.map((c) => [keyOf(c), c]));
  const originalKeys = new Set(original.channels.map(keyOf));
  const channels: Channel[] = [];
  for (const c of original.channels) {
    const e = editedByKey.get(keyOf(c));
    channels.push(e === c ? c : blendChannel(original, c, e, c.node, c.path, from, to, blend));
  }
  for (const e of edited.channels) {
    if (!originalKeys.has(keyOf(e))) channels.push(blendChannel(original, undefined, e, e.node, e.path, from, to, blend));
  }
  return withChannels(original, channels, edited.warnings.slice(original.warnings.length));
}

/**
 * [from, to] replaced by `segment` (a motion starting at 0 s, e.g. the part sped up): keys before
 * `from` copied, the segment's keys at from + s, the keys after `to` moved by the change of length.
 */
export function replaceSegment(original: Motion, segment: Motion, range: TimeRangeArg): Motion {
  return segmentInPlace(original, segment, range, false);
}

/**
 * replaceSegment, or with `local` only what it gives around the range: each track's keys from the
 * last before `from` to the first after `to`, the same numbers there (splicedChannel on that window of
 * the track). What blendInRange reads of an edited motion is inside the range, so a blended part edit
 * (reverse) need not copy every track of an hour whole twice, once here to throw away.
 */
function segmentInPlace(original: Motion, segment: Motion, range: TimeRangeArg, local: boolean): Motion {
  const fromF = Math.fround(range.from);
  const toF = Math.fround(range.to);
  const shift = durationOf(segment) - (range.to - range.from);
  const byKey = new Map(segment.channels.map((c) => [keyOf(c), c]));
  const channels = original.channels.map((c) => {
    const s = byKey.get(keyOf(c));
    if (c.times.length <= 1 || !s) return c;
    const size = componentsOf(c.path);
    const buf = new KeyBuffer(size, s.times.length + 4);
    buf.pushRange(s.times, s.values, 0, s.times.length, range.from);
    const head = lowerBound(c.times, fromF);
    let after = lowerBound(c.times, toF);
    if (after < c.times.length && c.times[after] === toF) after++;
    if (!local) return splicedChannel(c, head, buf, after, shift);
    const lo = Math.max(0, head - 1), hi = Math.min(c.times.length, after + 1);
    const window: Channel = { node: c.node, path: c.path, times: c.times.subarray(lo, hi), values: c.values.subarray(lo * size, hi * size) };
    return splicedChannel(window, head - lo, buf, after - lo, shift);
  });
  return withChannels(original, channels, segment.warnings.slice(original.warnings.length));
}

/** The part [from, to] of a motion, starting at 0 s. */
export function rangePart(motion: Motion, range: TimeRangeArg): Motion {
  return cutToRange(motion, range.from, range.to);
}

/** A time-keeping edit on a range: `edit` on the whole motion, blended into the range. */
export function editOnRange(motion: Motion, range: TimeRangeArg, edit: (m: Motion) => Motion, blend = RANGE_BLEND): Motion {
  const r = checkedRange(motion, range);
  const edited = edit(motion);
  if (edited === motion) return motion;
  return blendInRange(motion, edited, r, borderBlend(r, blend));
}

/** An edit of the part alone (its own time from 0 s), put back in place: length may change. */
export function editPartOnRange(motion: Motion, range: TimeRangeArg, edit: (part: Motion) => Motion): Motion {
  const r = checkedRange(motion, range);
  const part = rangePart(motion, r);
  const edited = edit(part);
  if (edited === part) return motion;
  return replaceSegment(motion, edited, r);
}

/** An edit of the part alone that keeps its length, blended in at the borders (reverse, in place). */
export function editPartBlended(motion: Motion, range: TimeRangeArg, edit: (part: Motion) => Motion, blend = RANGE_BLEND): Motion {
  const r = checkedRange(motion, range);
  const part = rangePart(motion, r);
  const edited = edit(part);
  if (edited === part) return motion;
  return blendInRange(motion, segmentInPlace(motion, edited, r, true), r, borderBlend(r, blend));
}
