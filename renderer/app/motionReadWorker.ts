/**
 * Module worker that reads and converts motion files off the page's main thread (a 10-minute .vrma
 * held the page for a few hundred milliseconds, a long BVH or VMD conversion for seconds). It runs the
 * very same reader as the page (readMotionFileHere), and hands the motion back with its typed arrays
 * transferred, not copied. Errors travel as their code, catalogue detail and parameters.
 */
import { readMotionFileHere } from './motionFile';
import type { MotionReadReply, MotionReadRequest } from './motionReadProtocol';
import type { Motion } from '../../shared/motion/types';
import { MotionError } from '../../shared/errors';

interface WorkerScope {
  onmessage: ((e: MessageEvent<MotionReadRequest>) => void) | null;
  postMessage(message: MotionReadReply, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;

/** Every distinct buffer under the motion's channels (a buffer listed twice cannot be transferred). */
function buffersOf(motion: Motion): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const c of motion.channels) {
    set.add(c.times.buffer as ArrayBuffer);
    set.add(c.values.buffer as ArrayBuffer);
  }
  return [...set];
}

scope.onmessage = async (e) => {
  const { id, name, bytes, pmx } = e.data;
  try {
    const { motion, convertedFrom } = await readMotionFileHere(name, bytes, pmx ? { pmx } : {});
    scope.postMessage({ id, ok: true, motion, ...(convertedFrom ? { convertedFrom } : {}) }, buffersOf(motion));
  } catch (err) {
    const error = err as Error;
    const info = err instanceof MotionError ? { code: err.code, detail: err.detail, params: { ...err.params } } : {};
    scope.postMessage({ id, ok: false, error: { name: error?.name ?? 'Error', message: error?.message ?? String(err), ...info } });
  }
};
