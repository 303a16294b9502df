/**
 * Copy the whole pose (every track, or the tracks of some nodes) at one time and paste it as keys at
 * another; optionally mirrored left <-> right ("paste flipped"), which is the mirror edit applied to
 * the one-frame pose, so a flipped paste equals the mirrored motion's pose. A track the pose needs but
 * the motion lacks (a mirrored arm that was never keyed) gets the pasted key between two rest keys one
 * frame either side, so the rest of the motion is unchanged.
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf, durationOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { sampleChannel } from '../vrma/sample';
import { requireFinite, round, TIME_EPSILON } from './params';
import { withKeyAt } from './poseDelta';
import { lowerBound } from './keyBuffer';
import { mirror } from './mirror';
import { restValue } from './keySelection';

export interface PastePoseOptions {
  /** Paste the pose mirrored left <-> right. */
  readonly mirrored?: boolean;
  /** Only the tracks of these nodes (default: every track). */
  readonly nodes?: ReadonlySet<number>;
  /** Take the pose from this motion (an earlier version of the document, a copied clipboard) instead. */
  readonly source?: Motion;
}

function requireTime(motion: Motion, name: string, t: number): number {
  requireFinite(name, t);
  const d = durationOf(motion);
  if (t < -TIME_EPSILON || t > d + TIME_EPSILON) fail('BAD_PARAMETER', 'time.outside', { time: String(t), duration: round(d) });
  return Math.min(Math.max(t, 0), d);
}

/** The pose at t as a one-frame motion (one key at 0 s per track), optionally only some nodes. */
export function poseAt(motion: Motion, t: number, nodes?: ReadonlySet<number>): Motion {
  const time = requireTime(motion, 'time', t);
  const channels = motion.channels
    .filter((c) => !nodes || nodes.has(c.node))
    .map((c): Channel => ({ node: c.node, path: c.path, times: Float32Array.of(0), values: sampleChannel(c, time, new Float32Array(componentsOf(c.path))) }));
  return withChannels(motion, channels);
}

/** Key times one frame before and after t on the densest track (t itself when at an end). */
function neighbourFrames(motion: Motion, t: number): [number, number] {
  let best: Float32Array | undefined;
  for (const c of motion.channels) if (!best || c.times.length > best.length) best = c.times;
  if (!best || best.length < 2) return [t, t];
  const tf = Math.fround(t);
  const i = lowerBound(best, tf);
  const before = i > 0 ? best[i - 1] : tf;
  const after = i < best.length && best[i] > tf ? best[i] : i + 1 < best.length ? best[i + 1] : tf;
  return [before, after];
}

/** The channel with the key at t set to `value` (inserted when missing). */
function setKey(channel: Channel, t: number, value: Float32Array): Channel {
  const { channel: keyed, index } = withKeyAt(channel, t);
  const values = keyed.values === channel.values ? channel.values.slice() : keyed.values;
  values.set(value, index * value.length);
  return { ...keyed, values };
}

export function pastePose(motion: Motion, from: number, to: number, options: PastePoseOptions = {}): Motion {
  const target = requireTime(motion, 'paste time', to);
  let pose = poseAt(options.source ?? motion, from, options.nodes);
  if (options.mirrored) pose = mirror(pose);
  const replaced = new Map<Channel, Channel>();
  const added: Channel[] = [];
  for (const p of pose.channels) {
    const old = motion.channels.find((c) => c.node === p.node && c.path === p.path);
    if (old) {
      replaced.set(old, setKey(replaced.get(old) ?? old, target, p.values));
      continue;
    }
    const rest = restValue(motion, p.node, p.path);
    const size = rest.length;
    const [before, after] = neighbourFrames(motion, target);
    const tf = Math.fround(target);
    const times: number[] = [];
    const values: number[] = [];
    if (before < tf) times.push(before), values.push(...rest);
    times.push(tf), values.push(...p.values);
    if (after > tf) times.push(after), values.push(...rest);
    added.push({ node: p.node, path: p.path, times: Float32Array.from(times), values: Float32Array.from(values.slice(0, times.length * size)) });
  }
  return withChannels(motion, [...motion.channels.map((c) => replaced.get(c) ?? c), ...added]);
}
