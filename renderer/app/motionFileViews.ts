/**
 * A .vrma read whole leaves every track a view of the file's bytes, and the page that sent the bytes
 * to the motion file worker still has them. So the worker answers a read with where each track lies
 * in the bytes, not the tracks: the page makes the same views of its own copy, and nothing crosses
 * back. The worker keeps its copy to measure what the page would otherwise measure on its main thread
 * after opening (outliers, motion amount, foot track), then hands that copy on as the autosave
 * worker's (autosaveBuffers.ts): the page no longer copies the file into slices for it.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import type { BytesRef, MotionOnBytes } from './motionFileProtocol';

/** The motion as references into `buffer`, or undefined where any track is not a plain view of it (a baked or converted one). */
export function asViews(motion: Motion, buffer: ArrayBufferLike): MotionOnBytes | undefined {
  const ref = (a: Float32Array): BytesRef | undefined => (a.buffer === buffer ? { byteOffset: a.byteOffset, length: a.length } : undefined);
  const channels: MotionOnBytes['channels'][number][] = [];
  for (const c of motion.channels) {
    if (c.kinds || c.inTangents || c.outTangents) return undefined;
    const times = ref(c.times), values = ref(c.values);
    if (!times || !values) return undefined;
    channels.push({ node: c.node, path: c.path, times, values });
  }
  return { ...motion, channels };
}

/** The motion with its tracks as views of `buffer` (the bytes the worker read); a time array shared by tracks stays one array. */
export function onBytes(motion: MotionOnBytes, buffer: ArrayBufferLike): Motion {
  const views = new Map<string, Float32Array>();
  const view = (r: BytesRef) => {
    const k = `${r.byteOffset}:${r.length}`;
    let a = views.get(k);
    if (!a) views.set(k, a = new Float32Array(buffer, r.byteOffset, r.length));
    return a;
  };
  const channels: Channel[] = motion.channels.map((c) => ({ node: c.node, path: c.path, times: view(c.times), values: view(c.values) }));
  return { ...motion, channels };
}
