/**
 * Reads a video frame by frame for the detector: the bytes play in a <video> element (Chromium's
 * decoder: what it plays, the studio captures), each sample time is sought and the frame shown is
 * handed to the pose model. Seeking rather than playing makes the samples the same on every machine
 * however slow the detector is. A signal stops it between two frames.
 */
import { MotionError } from '../../shared/errors';
import type { DetectedFrame } from '../../shared/capture/landmarks';
import { decodeStretch, type DecodableVideo, type FrameSource } from './decodedFrames';
import { detectDetails, type DetailChoice } from './detailModels';
import { lastStampMs, nextStamp, type PoseResults, type PoseSolution } from './poseModel';

/** A video element with the bytes loaded (its metadata read), or the decoder's refusal as a worded error. */
export async function loadVideo(video: HTMLVideoElement, bytes: Uint8Array, mime: string): Promise<string> {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: mime }));
  video.muted = true;
  video.preload = 'auto';
  video.src = url;
  await new Promise<void>((resolve, reject) => {
    video.onloadeddata = () => resolve();
    video.onerror = () => {
      const reason = video.error?.message || `media error ${video.error?.code ?? '?'}`;
      reject(new MotionError('UNSUPPORTED', 'capture.decode', { reason }));
    };
  });
  // A browser's own recording (MediaRecorder WebM) has no duration in its header: seeking past the end
  // makes the decoder find it.
  if (video.duration === Infinity) {
    await new Promise<void>((resolve) => {
      video.ondurationchange = () => video.duration !== Infinity && resolve();
      video.currentTime = Number.MAX_SAFE_INTEGER;
    });
    await seek(video, 0);
  }
  if (!(video.duration > 0 && Number.isFinite(video.duration)) || !video.videoWidth) {
    throw new MotionError('BAD_DATA', 'capture.empty', { duration: video.duration || 0 });
  }
  return url;
}

/** Shows the frame at `time` (resolves at once when it is shown already). */
export function seek(video: HTMLVideoElement, time: number): Promise<void> {
  return new Promise((resolve) => {
    if (Math.abs(video.currentTime - time) < 1e-4 && video.readyState >= 2) return resolve();
    video.onseeked = () => resolve();
    video.currentTime = time;
  });
}

export interface DetectOptions {
  readonly fps: number;
  readonly signal: AbortSignal;
  /** The hands and the face too (Settings.capture), on frames with a person. */
  readonly details?: DetailChoice;
  /** The file's frames for WebCodecs (a WebM: decoded in order, not sought; decodedFrames.ts). */
  readonly decodable?: DecodableVideo | null;
  onFrame(done: number, total: number): void;
  /** Sees each frame just before the model reads it (the panel draws a few of them). */
  preview?(frame: CanvasImageSource): void;
}

/** Sample times at `fps` from 0 up to the video's end (a video of N frames at fps lasts N/fps: its last frame starts before the end). */
export function sampleTimes(duration: number, fps: number): number[] {
  const n = Math.max(1, Math.ceil(duration * fps - 1e-6));
  return Array.from({ length: n }, (_, i) => i / fps);
}

/**
 * Every sampled frame's landmarks (a frame without a person has none); stops with an AbortError when cancelled.
 * A WebM is decoded in order (decodedFrames.ts), a few frames ahead of the model. Another file is
 * sought: each frame is copied out (an ImageBitmap) and the seek to the next one starts before the
 * pose model reads the copy, so decoding runs on the media threads during inference (with the hands
 * or the face the next seek waits: they read the video element itself).
 */
export async function detectFrames(video: HTMLVideoElement, pose: PoseSolution, o: DetectOptions): Promise<DetectedFrame[]> {
  const times = sampleTimes(video.duration, o.fps);
  const source = o.decodable ? decodeStretch(o.decodable, times, 0, times.length) : null;
  try {
    return await readFrames(video, pose, o, times, source);
  } finally {
    source?.close();
  }
}

async function readFrames(video: HTMLVideoElement, pose: PoseSolution, o: DetectOptions, times: readonly number[], source: FrameSource | null): Promise<DetectedFrame[]> {
  let result: PoseResults | null = null;
  pose.onResults((r) => (result = r));
  const frames: DetectedFrame[] = [];
  const details = o.details && (o.details.hands || o.details.face) ? o.details : null;
  // Each run continues a second after the model's last stamp (poseModel: they must increase).
  const base = lastStampMs() + 1000;
  let seeking = source ? null : seek(video, times[0]);
  for (const [i, time] of times.entries()) {
    if (o.signal.aborted) throw new DOMException('capture cancelled', 'AbortError');
    const next = times[i + 1];
    let shown: ImageBitmap | null = null;
    if (source) shown = await source.next();
    else {
      await seeking;
      // The first frame goes to the model as the video itself (it is read twice, below, before any overlap).
      const overlap = !details && next !== undefined && i > 0;
      shown = overlap ? await createImageBitmap(video) : null;
      seeking = overlap ? seek(video, next) : null;
    }
    const image = shown ?? video;
    try {
      // The model's first frame of a run is read twice (the first answer dropped): on the CPU path the
      // first read of a new clip can miss a person the second read finds (capture-face's first frame).
      if (i === 0) await pose.send({ image }, nextStamp(base - 500));
      o.preview?.(image);
      result = null;
      const stamp = nextStamp(base + time * 1000);
      await pose.send({ image }, stamp);
      const r = result as PoseResults | null;
      if (!r?.poseWorldLandmarks || !r.poseLandmarks) frames.push({ time });
      else {
        const landmarks = r.poseLandmarks.flatMap((p) => [p.x, p.y, p.z]);
        const more = details ? await detectDetails(image, landmarks, stamp, details) : {};
        frames.push({ time, world: r.poseWorldLandmarks.flatMap((p) => [p.x, p.y, p.z]), image: landmarks, visibility: r.poseLandmarks.map((p) => p.visibility ?? 1), ...more });
      }
    } finally {
      shown?.close();
    }
    if (!source && !seeking && next !== undefined) seeking = seek(video, next);
    o.onFrame(i + 1, times.length);
  }
  await seeking;
  return frames;
}
