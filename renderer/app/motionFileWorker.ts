/**
 * Module worker that reads, converts and writes motion files off the page's main thread (a 10-minute
 * .vrma held the page for a few hundred milliseconds each way, a long BVH or VMD conversion for
 * seconds). It runs the very same reader and writer as the page (readMotionFileHere, writeVrma) and
 * hands motions and bytes back transferred, not copied. Errors travel as their code, catalogue detail
 * and parameters.
 */
import { readMotionFileHere } from './motionFile';
import type { MotionFileReply, MotionFileRequest } from './motionFileProtocol';
import type { Motion } from '../../shared/motion/types';
import { MotionError } from '../../shared/errors';
import { writeVrma } from '../../shared/vrma/write';

interface WorkerScope {
  onmessage: ((e: MessageEvent<MotionFileRequest>) => void) | null;
  postMessage(message: MotionFileReply, transfer?: Transferable[]): void;
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
  const req = e.data;
  try {
    if (req.kind === 'write') {
      const bytes = writeVrma(req.motion);
      scope.postMessage({ id: req.id, ok: true, bytes }, [bytes.buffer as ArrayBuffer]);
      return;
    }
    const { motion, convertedFrom } = await readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {});
    scope.postMessage({ id: req.id, ok: true, motion, ...(convertedFrom ? { convertedFrom } : {}) }, buffersOf(motion));
  } catch (err) {
    const error = err as Error;
    const info = err instanceof MotionError ? { code: err.code, detail: err.detail, params: { ...err.params } } : {};
    scope.postMessage({ id: req.id, ok: false, error: { name: error?.name ?? 'Error', message: error?.message ?? String(err), ...info } });
  }
};
