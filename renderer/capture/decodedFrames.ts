/**
 * A WebM's frames decoded in order by WebCodecs for a run of sample times, instead of a <video>
 * sought at each: a browser's recording (MediaRecorder, the webcam's) has no cue index, and there
 * each seek searched the file (47 ms of the media thread a frame on a 1-minute clip, 14 on a 10 s
 * one). The container is read in shared/capture/webmDemux; which frame each sample shows is
 * shared/capture/framePicks (by the stored times, so the same frames on every machine). Each
 * stretch has its own decoder from the key frame before its first sample, and decodes at most a few
 * frames ahead of the one read (memory stays flat however long the clip). Files it does not read
 * (.mp4 and .mov have an index: seeking them is cheap) are left to the <video> (videoFrames.ts).
 */
import { MotionError } from '../../shared/errors';
import { framePicks } from '../../shared/capture/framePicks';
import { demuxWebm, type WebmVideo } from '../../shared/capture/webmDemux';

/** A demuxed file whose codec this page's WebCodecs decodes. */
export interface DecodableVideo {
  readonly bytes: Uint8Array;
  readonly video: WebmVideo;
  /** Frame indices in presentation order, and their start times (seconds). */
  readonly order: readonly number[];
  readonly starts: readonly number[];
}

/** The sample frames of one stretch, in order: each `next` is the following sample's frame. */
export interface FrameSource {
  next(): Promise<ImageBitmap>;
  close(): void;
}

/** Decoded frames a stretch keeps ready ahead of the one read, and chunks queued in the decoder. */
const AHEAD = 2;
const QUEUED = 2;

const configOf = (v: WebmVideo): VideoDecoderConfig => ({
  codec: v.track.codec,
  codedWidth: v.track.width,
  codedHeight: v.track.height,
  ...(v.track.description ? { description: v.track.description } : {}),
  // The colours the file says it has, as the player converts them (a recording's are BT.709, not the default).
  colorSpace: (v.track.colorSpace ?? { matrix: 'smpte170m', primaries: 'smpte170m', transfer: 'smpte170m', fullRange: false }) as VideoColorSpaceInit,
});

const micros = (seconds: number) => Math.round(seconds * 1e6);

/**
 * `count` bitmaps of a decoded frame (closed here), through RGBA in memory: a bitmap made straight
 * from the VideoFrame is converted on the GPU, and in software GL (SwiftShader, where this machine
 * and many laptops without a GPU process it) that conversion and the worker's upload of it cost 30 ms
 * of CPU a frame; from memory, 3.5 ms (the input path alone, 200 frames of the 1-minute clip,
 * decoder → bitmap → a worker's texImage2D). The colours are converted by the frame's colour space,
 * as the player does (capture-decode.test.ts compares them).
 */
function rgbaBitmaps(frame: VideoFrame, count: number): Promise<ImageBitmap>[] {
  const [width, height] = [frame.displayWidth, frame.displayHeight];
  const pixels = new Uint8ClampedArray(width * height * 4);
  const image = frame.copyTo(pixels, { format: 'RGBA' }).then(
    () => new ImageData(pixels, width, height),
    (e: unknown) => {
      throw new MotionError('UNSUPPORTED', 'capture.decode', { reason: (e as Error)?.message || String(e) });
    },
  ).finally(() => frame.close());
  return Array.from({ length: count }, () => image.then((i) => createImageBitmap(i)));
}

/** The file ready to decode, or null: not a WebM this reads, or no decoder here for its codec (the caller seeks the <video>). */
export async function decodableVideo(bytes: Uint8Array): Promise<DecodableVideo | null> {
  if (typeof VideoDecoder === 'undefined') return null;
  const video = demuxWebm(bytes);
  if (!video) return null;
  const support = await VideoDecoder.isConfigSupported(configOf(video)).catch(() => null);
  if (!support?.supported) return null;
  const order = video.frames.map((_, i) => i).sort((a, b) => video.frames[a].time - video.frames[b].time);
  return { bytes, video, order, starts: order.map((i) => video.frames[i].time) };
}

/** The frames shown at times[from..to), decoded in order from the key frame before the first. */
export function decodeStretch(d: DecodableVideo, times: readonly number[], from: number, to: number): FrameSource {
  const { frames } = d.video;
  const picks = framePicks(d.starts, times.slice(from, to), d.video.tick).map((p) => d.order[p]);
  const wanted = picks.map((i) => micros(frames[i].time));
  // Decode from the last key frame at or before the first frame wanted, up to the last one wanted (file order).
  let feed = picks.reduce((a, p) => Math.min(a, p), frames.length - 1);
  while (feed > 0 && !frames[feed].key) feed--;
  const last = picks.reduce((a, p) => Math.max(a, p), -1);
  const ready: Promise<ImageBitmap>[] = [];
  let want = 0, failure: unknown = null, flushed = false, flushDone = false, wake: (() => void) | null = null;
  const signal = () => {
    wake?.();
    wake = null;
  };
  const decoder = new VideoDecoder({
    output: (frame) => {
      // Every sample that shows this frame (a sample rate above the video's shows a frame twice).
      let count = 0;
      while (want + count < wanted.length && wanted[want + count] <= frame.timestamp) count++;
      want += count;
      if (count) ready.push(...rgbaBitmaps(frame, count));
      else frame.close();
      signal();
    },
    error: (e) => {
      failure ??= new MotionError('UNSUPPORTED', 'capture.decode', { reason: e.message || String(e) });
      signal();
    },
  });
  decoder.configure(configOf(d.video));
  decoder.addEventListener('dequeue', () => pump());
  function pump(): void {
    if (failure || decoder.state !== 'configured') return;
    while (feed <= last && ready.length < AHEAD && decoder.decodeQueueSize < QUEUED) {
      const f = frames[feed++];
      decoder.decode(new EncodedVideoChunk({ type: f.key ? 'key' : 'delta', timestamp: micros(f.time), data: d.bytes.subarray(f.offset, f.offset + f.size) }));
    }
    if (feed > last && !flushed) {
      flushed = true;
      // Every output comes before the flush resolves: after it, a frame not given never will be.
      decoder.flush().then(() => {
        flushDone = true;
        signal();
      }, () => {});
    }
  }
  let done = false;
  return {
    async next() {
      for (;;) {
        if (failure) throw failure;
        const r = ready.shift();
        if (r) {
          pump();
          return r;
        }
        if (flushDone) throw new MotionError('BAD_DATA', 'capture.decode', { reason: `no decoded frame at ${((wanted[want] ?? NaN) / 1e6).toFixed(3)} s` });
        pump();
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    close() {
      if (done) return;
      done = true;
      for (const r of ready.splice(0)) r.then((b) => b.close(), () => {});
      if (decoder.state !== 'closed') decoder.close();
    },
  };
}
