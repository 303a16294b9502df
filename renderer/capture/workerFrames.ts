/**
 * A video's sampled frames read by the pose workers (poseWorkers.ts): the samples are cut into one
 * consecutive stretch per worker, and the page takes a frame of each stretch in turn as an ImageBitmap
 * moved to that stretch's worker, so decoding the next frames runs while the workers estimate theirs.
 * A WebM is decoded in order, one decoder per stretch (decodedFrames.ts); another file is sought in
 * the <video> at each sample. Each worker gets at most one frame ahead of the one it is reading. The
 * frames come back in sample order whatever order the workers finish in; a signal stops it between
 * two frames.
 */
import type { DetectedFrame } from '../../shared/capture/landmarks';
import { LEAD_IN, stretches } from '../../shared/capture/stretches';
import type { PoseWorker } from './poseWorkers';
import { sampleTimes, seek, type DetectOptions } from './videoFrames';
import { decodeStretch, type FrameSource } from './decodedFrames';

export async function detectFramesInWorkers(video: HTMLVideoElement, workers: readonly PoseWorker[], o: DetectOptions): Promise<DetectedFrame[]> {
  const times = sampleTimes(video.duration, o.fps);
  const parts = stretches(times.length, workers.length);
  // A worker after the first starts LEAD_IN frames before its stretch, their answers dropped: its
  // tracking has settled by the stretch's first frame (capture-stretches.test.ts measures why).
  const first = parts.map(([start], k) => (k === 0 ? start : Math.max(0, start - LEAD_IN)));
  const sources: FrameSource[] | null = o.decodable ? parts.map(([, end], k) => decodeStretch(o.decodable!, times, first[k], end)) : null;
  try {
    return await readStretches(video, workers, o, { times, parts, first, sources });
  } finally {
    for (const s of sources ?? []) s.close();
  }
}

interface Plan {
  readonly times: readonly number[];
  readonly parts: readonly (readonly [number, number])[];
  readonly first: readonly number[];
  readonly sources: readonly FrameSource[] | null;
}

async function readStretches(video: HTMLVideoElement, workers: readonly PoseWorker[], o: DetectOptions, { times, parts, first, sources }: Plan): Promise<DetectedFrame[]> {
  const frames: DetectedFrame[] = new Array(times.length);
  const next = [...first];
  const busy: Promise<void>[] = parts.map(() => Promise.resolve());
  // Each run continues a second after a worker's last stamp (its graph needs them to increase).
  const bases = parts.map((_, k) => workers[k].lastStamp + 1000);
  let done = 0;
  let failure: unknown = null;
  const check = () => {
    if (failure) throw failure;
    if (o.signal.aborted) throw new DOMException('capture cancelled', 'AbortError');
  };
  while (next.some((i, k) => i < parts[k][1])) {
    for (const [k, [start, end]] of parts.entries()) {
      const i = next[k];
      if (i >= end) continue;
      next[k]++;
      check();
      const shown = sources ? await sources[k].next() : await seek(video, times[i]).then(() => createImageBitmap(video));
      o.preview?.(shown);
      // The worker's frame before this one is answered first (one frame ahead at most: memory stays flat).
      await busy[k];
      check();
      const w = workers[k];
      // A stretch's first frame is read twice (the first answer dropped), as the page's estimator does
      // at a clip's start: on the CPU path the first read can miss a person the second read finds.
      const warm = i === first[k] ? w.estimate(await createImageBitmap(shown), bases[k] + times[i] * 1000 - 500) : Promise.resolve(null);
      const time = times[i];
      busy[k] = warm
        .then(() => w.estimate(shown, bases[k] + time * 1000))
        .then((r) => {
          if (i < start) return;
          frames[i] = r ? { time, world: r.world, image: r.image, visibility: r.visibility } : { time };
          o.onFrame(++done, times.length);
        })
        .catch((e) => {
          failure ??= e;
        });
    }
  }
  await Promise.all(busy);
  check();
  return frames;
}
