/**
 * Module worker that reads, converts and writes motion files off the page's main thread (a 10-minute
 * .vrma held the page for a few hundred milliseconds each way, a long BVH or VMD conversion for
 * seconds). It runs the very same reader and writer as the page (readMotionFileHere, writeVrma) and
 * hands motions and bytes back transferred, not copied. Errors travel as workerRpc sends them (code,
 * catalogue detail and parameters).
 */
import { readMotionFileHere } from './motionFile';
import type { MotionFileRequest, MotionFileResult } from './motionFileProtocol';
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { serveRpc } from '../workers/jobs';

/** Every distinct buffer under the motion's channels (a buffer listed twice cannot be transferred). */
function buffersOf(motion: Motion): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const c of motion.channels) {
    set.add(c.times.buffer as ArrayBuffer);
    set.add(c.values.buffer as ArrayBuffer);
  }
  return [...set];
}

serveRpc<MotionFileRequest, MotionFileResult>(
  async (req) => {
    if (req.kind === 'write') return { kind: 'write', bytes: writeVrma(req.motion) };
    const { motion, convertedFrom } = await readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {});
    return { kind: 'read', motion, ...(convertedFrom ? { convertedFrom } : {}) };
  },
  (r) => (r.kind === 'write' ? [r.bytes.buffer as ArrayBuffer] : buffersOf(r.motion)),
);
