/**
 * How a motion crosses to the edit worker and back without copying what it already has. Both sides
 * keep the channels of the last request (`held`, in the same order); a request sends a channel the
 * worker holds as its index, and only the others as data (a structured clone). The reply sends a
 * channel the edit left alone as the index of the request's channel, an array it kept (smooth keeps
 * each track's times) as a reference to that channel's array, and the rest as new arrays that are
 * transferred, not copied. The motion's other fields the edit did not replace come back as "same",
 * so the page's result shares its objects exactly as an edit run in the page would.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import { compactChannels } from '../workers/compactChannels';

/** A channel the worker holds (its index in `held`), or the channel itself. */
export type SentChannel = number | Channel;

/** An array of the request's channel `of` (its times or values), or a new array. */
export type ReplyArray = Float32Array | { readonly of: number; readonly field: 'times' | 'values' };
/** The request's channel of that index, or a channel whose arrays are new or the request's. */
export type ReplyChannel = number | (Omit<Channel, 'times' | 'values'> & { readonly times: ReplyArray; readonly values: ReplyArray });

type MotionFields = Omit<Motion, 'channels'>;

export interface SentMotion {
  readonly fields: MotionFields;
  readonly channels: readonly SentChannel[];
}

export interface ReplyMotion {
  /** Fields of the request's motion the result shares. */
  readonly same: readonly string[];
  readonly fields: Partial<MotionFields>;
  readonly channels: readonly ReplyChannel[];
}

function fieldsOf(motion: Motion): MotionFields {
  const { channels: _channels, ...fields } = motion;
  return fields;
}

/** Page side: the motion as sent, given what the worker holds (channel -> index). */
export function sendMotion(motion: Motion, held: ReadonlyMap<Channel, number>): SentMotion {
  return { fields: fieldsOf(motion), channels: compactChannels(motion.channels.map((c) => held.get(c) ?? c)) };
}

/** Worker side: the motion a request carries, from its channels and those held. */
export function receiveMotion(sent: SentMotion, held: readonly Channel[]): Motion {
  return {
    ...sent.fields,
    channels: sent.channels.map((c) => {
      if (typeof c !== 'number') return c;
      const h = held[c];
      if (!h) throw new Error(`the edit worker does not hold channel ${c}`);
      return h;
    }),
  };
}

/** Worker side: the result as replied to the request's motion `input`, and the buffers to transfer. */
export function replyMotion(input: Motion, output: Motion): { motion: ReplyMotion; transfer: ArrayBuffer[] } {
  const index = new Map(input.channels.map((c, i) => [c, i]));
  const arrays = new Map<Float32Array, { of: number; field: 'times' | 'values' }>();
  const kept = new Set<ArrayBufferLike>();
  input.channels.forEach((c, i) => {
    if (!arrays.has(c.times)) arrays.set(c.times, { of: i, field: 'times' });
    if (!arrays.has(c.values)) arrays.set(c.values, { of: i, field: 'values' });
    kept.add(c.times.buffer);
    kept.add(c.values.buffer);
  });
  const transfer = new Set<ArrayBuffer>();
  const wire = (a: Float32Array): ReplyArray => {
    const ref = arrays.get(a);
    if (ref) return ref;
    // A buffer the worker still holds (under one of its channels) is copied, not transferred.
    if (!kept.has(a.buffer)) transfer.add(a.buffer as ArrayBuffer);
    return a;
  };
  const channels = output.channels.map((c): ReplyChannel => index.get(c) ?? { ...c, times: wire(c.times), values: wire(c.values) });
  const same: string[] = [];
  const fields: Record<string, unknown> = {};
  const inputFields = input as unknown as Record<string, unknown>;
  for (const [key, value] of Object.entries(fieldsOf(output))) {
    if (value === inputFields[key]) same.push(key);
    else fields[key] = value;
  }
  return { motion: { same, fields: fields as Partial<MotionFields>, channels }, transfer: [...transfer] };
}

/** Page side: the result motion, sharing the request's motion `input` wherever the worker said so. */
export function receiveReply(input: Motion, reply: ReplyMotion): Motion {
  const array = (a: ReplyArray): Float32Array => (a instanceof Float32Array ? a : input.channels[a.of][a.field]);
  const channels = reply.channels.map((c) => (typeof c === 'number' ? input.channels[c] : { ...c, times: array(c.times), values: array(c.values) }));
  const fields: Record<string, unknown> = { ...reply.fields };
  const inputFields = input as unknown as Record<string, unknown>;
  for (const key of reply.same) fields[key] = inputFields[key];
  return { ...(fields as unknown as MotionFields), channels };
}
