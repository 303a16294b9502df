/**
 * Insert a key at t on the given tracks (the dope sheet's K): the interpolated value, so the motion
 * looks the same, ready to be posed (the same key insertion as a pose edit's). A track that does not
 * exist yet gets one key holding the property's rest value: what the avatar showed there anyway.
 */
import type { Channel, ChannelPath, Motion } from '../motion/types';
import { durationOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { requireFinite, round, TIME_EPSILON } from './params';
import { withKeyAt } from './poseDelta';
import { restValue } from './keySelection';

export interface TrackRef {
  readonly node: number;
  readonly path: ChannelPath;
}

export function insertKeys(motion: Motion, tracks: readonly TrackRef[], t: number): Motion {
  requireFinite('time', t);
  const duration = durationOf(motion);
  if (t < -TIME_EPSILON || t > duration + TIME_EPSILON) fail('BAD_PARAMETER', 'time.outside', { time: String(t), duration: round(duration) });
  const time = Math.min(Math.max(t, 0), duration);
  const replaced = new Map<Channel, Channel>();
  const added: Channel[] = [];
  const seen = new Set<string>();
  for (const ref of tracks) {
    const id = `${ref.node}/${ref.path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const old = motion.channels.find((c) => c.node === ref.node && c.path === ref.path);
    if (old) {
      const { channel } = withKeyAt(old, time);
      if (channel !== old) replaced.set(old, channel);
    } else {
      added.push({ node: ref.node, path: ref.path, times: Float32Array.of(time), values: restValue(motion, ref.node, ref.path) });
    }
  }
  if (!replaced.size && !added.length) return motion;
  return withChannels(motion, [...motion.channels.map((c) => replaced.get(c) ?? c), ...added]);
}
