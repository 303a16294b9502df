/**
 * Cutting and joining channels in time: a segment [from, to] of a channel (interpolated keys added at
 * both ends) and two segments joined with a crossfade. Delete range, loop seam and join are all
 * "segment A, then segment B overlapping A's last `blend` seconds".
 */
import type { Channel } from '../motion/types';
import { componentsOf } from '../motion/types';
import { KeyBuffer, lowerBound } from './keyBuffer';
import { sampleChannel } from '../vrma/sample';
import { slerpFlat } from '../math/quat';

/** Keys this close to a cut are replaced by the interpolated key at the cut. */
const CUT_EPSILON = 1e-6;
/** Crossfades get keys at least this often, so the smoothstep weight is not flattened into a straight line. */
const CROSSFADE_RATE = 30;

export function smoothstep(u: number): number {
  const x = u <= 0 ? 0 : Math.min(u, 1);
  return x * x * (3 - 2 * x);
}

/** Appends the part of `channel` inside [from, to] at output times t - from + offset. */
export function appendSegment(buf: KeyBuffer, channel: Channel, from: number, to: number, offset: number): void {
  const times = channel.times;
  const n = times.length;
  const size = buf.size;
  const scratch = new Float64Array(size);
  const start = Math.min(Math.max(from, times[0]), to);
  const end = Math.max(Math.min(to, times[n - 1]), start);
  sampleChannel(channel, start, scratch);
  buf.push(start - from + offset, scratch);
  if (!(end - start > CUT_EPSILON)) return;
  buf.pushRange(times, channel.values, lowerBound(times, start + CUT_EPSILON), lowerBound(times, end - CUT_EPSILON), offset - from);
  sampleChannel(channel, end, scratch);
  buf.push(end - from + offset, scratch);
}

/** The part of a channel inside [from, to], shifted to start at 0. */
export function channelSegment(channel: Channel, from: number, to: number): Channel {
  const size = componentsOf(channel.path);
  const first = lowerBound(channel.times, from);
  const buf = new KeyBuffer(size, lowerBound(channel.times, to) - first + 4);
  appendSegment(buf, channel, from, to, 0);
  return buf.toChannel(channel.node, channel.path);
}

export interface ChannelPart {
  /** Sampled with clamping outside its keys, so a part may extend past the channel's own range. */
  readonly channel: Channel;
  readonly from: number;
  readonly to: number;
}

function mixInto(out: Float64Array, a: Float64Array, b: Float64Array, w: number, rotation: boolean): void {
  if (rotation) {
    slerpFlat(out, 0, a, 0, b, 0, w);
    return;
  }
  for (let c = 0; c < out.length; c++) out[c] = a[c] + (b[c] - a[c]) * w;
}

/**
 * Part A at output time 0, part B starting `blend` seconds before A ends; over the overlap the value
 * goes from A to B with smoothstep weights (slerp for rotations, lerp otherwise). Output length:
 * (A.to - A.from) - blend + (B.to - B.from).
 */
export function spliceParts(a: ChannelPart, b: ChannelPart, blend: number): Channel {
  const { node, path } = a.channel;
  const size = componentsOf(path);
  const rotation = path === 'rotation';
  const lengthA = a.to - a.from;
  const startB = lengthA - blend;
  const buf = new KeyBuffer(size, a.channel.times.length + b.channel.times.length + 8);
  const va = new Float64Array(size);
  const vb = new Float64Array(size);
  const mixed = new Float64Array(size);

  // A before the overlap.
  const ta = a.channel.times;
  sampleChannel(a.channel, a.from, va);
  buf.push(0, va);
  buf.pushRange(ta, a.channel.values, lowerBound(ta, a.from + CUT_EPSILON), lowerBound(ta, a.from + startB - CUT_EPSILON), -a.from);

  // The overlap: union of both parts' keys and a regular grid, each a weighted mix.
  const overlap: number[] = [startB];
  if (blend > 0) {
    const steps = Math.max(2, Math.ceil(blend * CROSSFADE_RATE));
    for (let k = 1; k <= steps; k++) overlap.push(startB + (blend * k) / steps);
    for (let i = lowerBound(ta, a.from + startB); i < ta.length && ta[i] <= a.to; i++) overlap.push(ta[i] - a.from);
    const tb = b.channel.times;
    for (let i = lowerBound(tb, b.from); i < tb.length && tb[i] <= b.from + blend; i++) overlap.push(tb[i] - b.from + startB);
    overlap.sort((x, y) => x - y);
  }
  let last = -Infinity;
  for (const t of overlap) {
    if (t < startB || t > lengthA || t - last < CUT_EPSILON) continue;
    last = t;
    const w = blend > 0 ? smoothstep((t - startB) / blend) : 1;
    sampleChannel(a.channel, a.from + t, va);
    sampleChannel(b.channel, b.from + t - startB, vb);
    mixInto(mixed, va, vb, w, rotation);
    buf.push(t, mixed);
  }

  // B after the overlap.
  const tb = b.channel.times;
  const bEnd = b.to;
  buf.pushRange(tb, b.channel.values, lowerBound(tb, b.from + blend + CUT_EPSILON), lowerBound(tb, bEnd - CUT_EPSILON), startB - b.from);
  if (bEnd - b.from > blend + CUT_EPSILON) {
    sampleChannel(b.channel, bEnd, vb);
    buf.push(bEnd - b.from + startB, vb);
  }
  return buf.toChannel(node, path);
}
