/**
 * The capture panel: while a video is captured it plays beside the avatar (over the viewport's left
 * side, the frame the detector reads), with a progress bar of the frames read and Cancel. The
 * detection (videoFrames + the shipped pose model) runs in the page between frames (see poseModel for
 * why not in a worker); the landmarks become a motion in shared/capture.
 */
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';
import { extensionOf } from '../../shared/formats/formats';
import { captureMotion } from '../../shared/capture/captureMotion';
import type { VideoCapturer } from '../app/capturedVideo';
import { sharedPose } from './poseModel';
import { faceUnavailable } from './detailModels';
import { detectFrames, loadVideo, type DetectOptions } from './videoFrames';
import { poseWorkers } from './poseWorkers';
import { detectFramesInWorkers } from './workerFrames';
import { decodableVideo } from './decodedFrames';
import type { DetectedFrame } from '../../shared/capture/landmarks';

/** Frames read per second of video: the closed loop's rate, a tenth of the detector's cost of 30. */
export const CAPTURE_FPS = 10;
/** How often the panel's picture of the video, its bar and its count change while it is read (ms). */
const PREVIEW_MS = 400;
const MIME: Readonly<Record<string, string>> = { '.mp4': 'video/mp4', '.webm': 'video/webm', '.mov': 'video/quicktime' };

/** What a test may ask of the capture (the test hook reads it): runs, frames read, and the pose workers of the last run (0: the page's estimator). */
export const captureStats = { runs: 0, framesRead: 0, workers: 0 };

/**
 * The body alone goes to the pose workers (one per core); with the hands or the face, or where no
 * worker can run the model, the page's estimator reads the frames (those models read the frame in the page).
 */
async function readFrames(video: HTMLVideoElement, o: DetectOptions): Promise<DetectedFrame[]> {
  const workers = o.details?.hands || o.details?.face ? null : await poseWorkers();
  const model = workers ? null : await sharedPose();
  if (o.signal.aborted) throw new DOMException('capture cancelled', 'AbortError');
  captureStats.runs++;
  captureStats.workers = workers?.length ?? 0;
  // What a test can see of it: the workers reading the frames, whether they run the SIMD wasm, and
  // whether the frames are decoded in order (a WebM) or sought in the <video>.
  video.closest('section')?.setAttribute('data-pose-workers', String(captureStats.workers));
  video.closest('section')?.setAttribute('data-frames', o.decodable ? 'decoded' : 'sought');
  if (workers) video.closest('section')?.setAttribute('data-pose-simd', String(workers.every((w) => w.simd)));
  return workers ? detectFramesInWorkers(video, workers, o) : detectFrames(video, model!, o);
}

export function createVideoCapturer(): Pick<VideoCapturer, 'capture'> {
  return {
    async capture(name, bytes, messages, details) {
      const abort = new AbortController();
      // The video decodes the frames unseen; the panel shows them on a canvas a few times a second
      // (a video on screen is composited again at every seek: in software that cost as much as a frame's model).
      const video = h('video', { id: 'capture-video', class: 'capture-video', playsinline: true, muted: true, hidden: true });
      const shown = h('canvas', { id: 'capture-preview', class: 'capture-video', 'aria-hidden': 'true' });
      const bar = h('progress', { id: 'capture-progress', class: 'capture-progress', max: 1, value: 0 });
      const status = h('div', { id: 'capture-status', class: 'capture-status' }, t('capture.progress.loading'));
      const cancel = h('button', { id: 'capture-cancel', type: 'button', title: t('capture.cancel.help') }, t('capture.cancel'));
      cancel.addEventListener('click', () => abort.abort());
      const panel = h(
        'section',
        { id: 'capture-panel', class: 'capture-panel', role: 'dialog', 'aria-label': t('capture.progress.title', { file: name }) },
        h('h2', {}, t('capture.progress.title', { file: name })),
        video,
        shown,
        bar,
        status,
        cancel,
      );
      document.body.appendChild(panel);
      let url = '';
      try {
        url = await loadVideo(video, bytes, MIME[extensionOf(name)] ?? 'video/mp4');
        shown.width = video.videoWidth;
        shown.height = video.videoHeight;
        let shownAt = -Infinity, paintedAt = -Infinity;
        const frames = await readFrames(video, {
          fps: CAPTURE_FPS,
          details,
          decodable: await decodableVideo(bytes),
          signal: abort.signal,
          preview: (frame) => {
            const now = performance.now();
            if (now - shownAt < PREVIEW_MS) return;
            shownAt = now;
            shown.getContext('2d')?.drawImage(frame, 0, 0, shown.width, shown.height);
          },
          onFrame: (done, total) => {
            captureStats.framesRead++;
            // The bar and the count change a few times a second, not at every frame: each change
            // repaints and composites the page, which in software costs a good part of a frame's model.
            const now = performance.now();
            if (done < total && done > 1 && now - paintedAt < PREVIEW_MS) return;
            paintedAt = now;
            bar.max = total;
            bar.value = done;
            status.textContent = t('capture.progress.frames', { done, total });
          },
        });
        const faceProblem = details.face ? faceUnavailable() : null;
        if (faceProblem) messages.show('notice', () => t('capture.faceUnavailable', { detail: faceProblem }));
        const motion = captureMotion(frames, { camera: { width: video.videoWidth, height: video.videoHeight }, generator: `VRMA Studio capture of ${name}` });
        return { motion, frames: frames.length, found: frames.filter((f) => f.world).length };
      } catch (e) {
        if ((e as Error)?.name !== 'AbortError') throw e;
        messages.show('notice', () => t('capture.cancelled', { file: name }));
        return null;
      } finally {
        panel.remove();
        video.removeAttribute('src');
        if (url) URL.revokeObjectURL(url);
      }
    },
  };
}
