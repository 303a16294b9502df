/**
 * Module worker that reads, converts and writes motion files off the page's main thread (a 10-minute
 * .vrma held the page for a few hundred milliseconds each way, a long BVH or VMD conversion for
 * seconds). It runs the very same reader and writer as the page (readMotionFileHere, writeVrma) and
 * hands motions and bytes back transferred, not copied. With a motion read it also answers what the
 * page would otherwise work out on its main thread right after opening: the outlier check, and on
 * request the foot track (the contact strip's measuring: 1.7 s of main thread at the hour). It also
 * parses .fbx/.glb/.gltf files for the take picker and converts the take picked (a 3 MB FBX parsed
 * in 220-280 ms of main thread). Errors travel as workerRpc sends them (code, catalogue detail and
 * parameters).
 */
import { openTakesHere, readMotionFileHere } from './motionFile';
import type { TakeSource } from '../../shared/formats/codecs';
import { TAKE_FILE_GONE, type MotionFileRequest, type MotionFileResult } from './motionFileProtocol';
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { serveRpc } from '../workers/jobs';
import { durationOf } from '../../shared/motion/types';
import { canPinFeet } from '../../shared/edits/pinFeet';
import { footChannels, footTrackOn } from '../../shared/edits/footTrack';
import { frameTimes } from '../../shared/edits/poseDelta';
import { hasOutliers, outlierTurnsOf } from '../../shared/edits/fixOutliers';

/** Every distinct buffer under the motion's channels (a buffer listed twice cannot be transferred). */
function buffersOf(motion: Motion): ArrayBuffer[] {
  const set = new Set<ArrayBuffer>();
  for (const c of motion.channels) {
    set.add(c.times.buffer as ArrayBuffer);
    set.add(c.values.buffer as ArrayBuffer);
  }
  return [...set];
}

/**
 * Motions read whose foot track is still to measure: their foot channels, copied before the motion's
 * arrays went to the page. The page asks for the track right after the read (motionFiles.ts); a read
 * that nobody asks about is dropped at the next read.
 */
const kept = new Map<number, { motion: Motion; times: Float32Array }>();
let tokens = 0;

function keepFeet(motion: Motion): number | undefined {
  try {
    if (!(durationOf(motion) > 0) || !canPinFeet(motion)) return undefined;
    const channels = footChannels(motion).map((c) => ({ ...c, times: c.times.slice(), values: c.values.slice() }));
    kept.clear();
    kept.set(++tokens, { motion: { ...motion, channels }, times: frameTimes(motion).slice() });
    return tokens;
  } catch {
    return undefined; // a damaged skeleton: the page finds no contacts itself
  }
}

function outliersOf(motion: Motion): boolean | undefined {
  try {
    return hasOutliers(motion);
  } catch {
    return undefined;
  }
}

/** The take file parsed last, until its take is converted or the picker is cancelled (one at a time). */
let takeFile: { readonly token: number; readonly source: TakeSource } | null = null;

/** A motion read or converted here, with what the page would work out on its main thread after it. */
function answered(motion: Motion, convertedFrom?: string): MotionFileResult {
  const outliers = outliersOf(motion), footToken = keepFeet(motion);
  const outlierTurns = outliers !== undefined ? outlierTurnsOf(motion) : undefined;
  return {
    kind: 'read',
    motion,
    ...(convertedFrom ? { convertedFrom } : {}),
    ...(outliers !== undefined ? { outliers } : {}),
    ...(outlierTurns ? { outlierTurns } : {}),
    ...(footToken !== undefined ? { footToken } : {}),
  };
}

serveRpc<MotionFileRequest, MotionFileResult>(
  async (req) => {
    if (req.kind === 'write') return { kind: 'write', bytes: writeVrma(req.motion) };
    if (req.kind === 'takes') {
      takeFile = null;
      const source = await openTakesHere(req.name, req.bytes);
      takeFile = { token: ++tokens, source };
      return { kind: 'takes', takes: source.takes, token: tokens };
    }
    if (req.kind === 'take' || req.kind === 'dropTakes') {
      const file = takeFile?.token === req.token ? takeFile : null;
      takeFile = null;
      if (req.kind === 'dropTakes') return { kind: 'dropTakes' };
      // A token from before a newer file (or a restarted worker): the page converts it itself.
      if (!file) throw Object.assign(new Error('motion files: that take file is no longer kept'), { name: TAKE_FILE_GONE });
      return answered(file.source.convert(req.take));
    }
    if (req.kind === 'footTrack') {
      const k = kept.get(req.token);
      kept.delete(req.token);
      if (!k) return { kind: 'footTrack' };
      const { ankleY, toesY, ankleXZ } = footTrackOn(k.motion, k.times);
      return { kind: 'footTrack', figures: { ankleY, toesY, ankleXZ } };
    }
    const { motion, convertedFrom } = await readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {});
    return answered(motion, convertedFrom);
  },
  (
    r,
  ) => (r.kind === 'write' ? [r.bytes.buffer as ArrayBuffer]
    : r.kind === 'footTrack' ? (r.figures ? [r.figures.ankleY.buffer, r.figures.toesY.buffer, r.figures.ankleXZ.buffer] as ArrayBuffer[] : [])
    : r.kind === 'read' ? [...buffersOf(r.motion), ...(r.outlierTurns ? [r.outlierTurns.angles.buffer as ArrayBuffer] : [])] : []),
);
