/**
 * Module worker that reads, converts and writes motion files off the page's main thread (a 10-minute
 * .vrma held the page for a few hundred milliseconds each way, a long BVH or VMD conversion for
 * seconds). It runs the very same reader and writer as the page (readMotionFileHere, writeVrma) and
 * hands motions and bytes back transferred, not copied. With a motion read it also answers what the
 * page would otherwise work out on its main thread right after opening: the outlier check, the motion
 * amount and the foot track (the contact strip's measuring: 1.7 s of main thread at the hour). A .vrma
 * whose tracks are all views of its bytes goes back as views (motionFileViews.ts): the read is
 * answered at once, those measures after it, and the worker's copy of the bytes then goes on to the
 * autosave worker. It also parses .fbx/.glb/.gltf files for the take picker and converts the take
 * picked (a 3 MB FBX parsed in 220-280 ms of main thread). Errors travel as workerRpc sends them
 * (code, catalogue detail and parameters).
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
import { asViews } from './motionFileViews';
import { measuredBuffers, measuresOf, tried } from './motionMeasures';

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
 * What the worker keeps of the last read for the page to ask about: the foot channels (copied before
 * the motion's arrays went to the page) of a motion sent whole, or the whole motion and its bytes of
 * one sent as views. The page asks right after the read (motionFiles.ts); a read that nobody asks
 * about is dropped at the next read.
 */
type Kept = { readonly feet: Motion; readonly times: Float32Array } | { readonly views: Motion; readonly buffer: ArrayBuffer };
const kept = new Map<number, Kept>();
let tokens = 0;

function keep(k: Kept): number {
  kept.clear();
  kept.set(++tokens, k);
  return tokens;
}

function keepFeet(motion: Motion): number | undefined {
  try {
    if (!(durationOf(motion) > 0) || !canPinFeet(motion)) return undefined;
    const channels = footChannels(motion).map((c) => ({ ...c, times: c.times.slice(), values: c.values.slice() }));
    return keep({ feet: { ...motion, channels }, times: frameTimes(motion).slice() });
  } catch {
    return undefined; // a damaged skeleton: the page finds no contacts itself
  }
}

/** The take file parsed last, until its take is converted or the picker is cancelled (one at a time). */
let takeFile: { readonly token: number; readonly source: TakeSource } | null = null;

async function handle(req: MotionFileRequest): Promise<MotionFileResult> {
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
    if (!k || !('feet' in k)) return { kind: 'footTrack' };
    const { ankleY, toesY, ankleXZ } = footTrackOn(k.feet, k.times);
    return { kind: 'footTrack', figures: { ankleY, toesY, ankleXZ } };
  }
  if (req.kind === 'measure') {
    const k = kept.get(req.token);
    return k && 'views' in k ? { kind: 'measure', ...measuresOf(k.views) } : { kind: 'measure' };
  }
  if (req.kind === 'twin') {
    const k = kept.get(req.token);
    kept.delete(req.token);
    return k && 'views' in k ? { kind: 'twin', buffer: k.buffer } : { kind: 'twin' };
  }
  const { motion, convertedFrom } = await readMotionFileHere(req.name, req.bytes, req.pmx ? { pmx: req.pmx } : {});
  const views = convertedFrom ? undefined : asViews(motion, req.bytes.buffer);
  if (views) return { kind: 'views', motion: views, kept: keep({ views: motion, buffer: req.bytes.buffer as ArrayBuffer }) };
  return answered(motion, convertedFrom);
}

/** A motion read or converted here and sent whole, with what the page would work out on its main thread after it. */
function answered(motion: Motion, convertedFrom?: string): MotionFileResult {
  const outliers = tried(() => hasOutliers(motion)), footToken = keepFeet(motion);
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

serveRpc<MotionFileRequest, MotionFileResult>(handle, (r) => {
  switch (r.kind) {
    case 'write':
      return [r.bytes.buffer as ArrayBuffer];
    case 'footTrack':
      return r.figures ? [r.figures.ankleY.buffer, r.figures.toesY.buffer, r.figures.ankleXZ.buffer] as ArrayBuffer[] : [];
    case 'measure':
      return measuredBuffers(r);
    case 'twin':
      return r.buffer ? [r.buffer] : [];
    case 'views':
    case 'takes':
    case 'dropTakes':
      return [];
    default:
      return [...buffersOf(r.motion), ...(r.outlierTurns ? [r.outlierTurns.angles.buffer as ArrayBuffer] : [])];
  }
});
