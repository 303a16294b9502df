/**
 * Record from webcam: the camera's preview with the skeleton the pose model sees drawn over it, a
 * 3-2-1 countdown, then MediaRecorder records the stream until Stop. The recording is handed back as a
 * WebM file named after the moment it started, which then takes a video file's path (the capture
 * panel reads it frame by frame at the capture rate), so a webcam capture is measured and cleaned up
 * as a file is. A refused or missing camera is a notice, never an exception: the studio goes on.
 */
import { h } from '../ui/dom';
import { t } from '../../shared/i18n';
import type { Messages } from '../ui/messages';
import { nextStamp, sharedPose, type PoseResults, type PoseSolution } from './poseModel';
import { drawSkeleton } from './skeletonOverlay';

const COUNTDOWN_SECONDS = 3;

/** getUserMedia's refusal -> the notice that says what to do about it. */
function cameraErrorText(e: unknown): () => string {
  const name = (e as { name?: string })?.name ?? '';
  if (name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError') return () => t('capture.webcam.denied');
  if (name === 'NotFoundError' || name === 'OverconstrainedError' || name === 'DevicesNotFoundError') return () => t('capture.webcam.none');
  if (name === 'NotReadableError' || name === 'TrackStartError') return () => t('capture.webcam.busy');
  return () => t('capture.webcam.failed', { detail: (e as Error)?.message || name || String(e) });
}

/** "webcam 2026-12-02 09-12.webm": the local date and time the recording started (no characters a file system refuses). */
export function recordingName(at: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  const date = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}`;
  return `${t('capture.webcam.fileName', { date, time: `${p(at.getHours())}-${p(at.getMinutes())}` })}.webm`;
}

function recorderMime(): string {
  return ['video/webm;codecs=vp8', 'video/webm;codecs=vp9', 'video/webm'].find((m) => MediaRecorder.isTypeSupported(m)) ?? '';
}

/**
 * The pose model on the preview's frames, one after another, until `stop` says so; resolves when the
 * last has returned. The panel's data-preview-frames / data-preview-poses count the frames read and
 * those with a skeleton drawn, data-skeleton-lines the lines of the last (what a test can see of the overlay).
 */
async function previewLoop(pose: PoseSolution, video: HTMLVideoElement, canvas: HTMLCanvasElement, panel: HTMLElement, stop: { done: boolean }, firstFrame: () => void): Promise<void> {
  let frames = 0, poses = 0;
  let result: PoseResults | null = null;
  pose.onResults((r) => (result = r));
  while (!stop.done) {
    if (video.readyState < 2 || !video.videoWidth) {
      await new Promise((r) => setTimeout(r, 50));
      continue;
    }
    result = null;
    await pose.send({ image: video }, nextStamp(performance.now()));
    const r = result as PoseResults | null;
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const lines = drawSkeleton(canvas, r?.poseLandmarks ?? null);
    if (lines > 0) poses++;
    panel.dataset.previewFrames = String(++frames);
    panel.dataset.previewPoses = String(poses);
    panel.dataset.skeletonLines = String(lines);
    firstFrame();
    // Let the page draw between two frames (the model runs on its thread).
    await new Promise((r) => setTimeout(r, 0));
  }
}

export async function recordWebcam(messages: Pick<Messages, 'show'>): Promise<{ name: string; bytes: Uint8Array } | null> {
  if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
    messages.show('error', () => t('capture.webcam.unavailable'));
    return null;
  }
  let stream: MediaStream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { width: { ideal: 640 }, height: { ideal: 480 } }, audio: false });
  } catch (e) {
    messages.show('error', cameraErrorText(e));
    return null;
  }
  const video = h('video', { id: 'webcam-video', class: 'capture-video', playsinline: true, muted: true, autoplay: true });
  const overlay = h('canvas', { id: 'webcam-skeleton', class: 'webcam-skeleton', 'aria-hidden': 'true' });
  const countdown = h('div', { id: 'webcam-countdown', class: 'webcam-countdown', 'aria-live': 'assertive' });
  const status = h('div', { id: 'webcam-status', class: 'capture-status', 'aria-live': 'polite' }, t('capture.webcam.starting'));
  const stopButton = h('button', { id: 'webcam-stop', type: 'button', title: t('capture.webcam.stop.help'), disabled: true }, t('capture.webcam.stop'));
  const cancel = h('button', { id: 'webcam-cancel', type: 'button', title: t('capture.webcam.cancel.help') }, t('capture.cancel'));
  const preview = h('div', { class: 'webcam-preview', role: 'img', 'aria-label': t('capture.webcam.preview') }, video, overlay, countdown);
  const panel = h(
    'section',
    { id: 'webcam-panel', class: 'capture-panel', role: 'dialog', 'aria-label': t('capture.webcam.title') },
    h('h2', {}, t('capture.webcam.title')),
    preview,
    status,
    h('div', { class: 'capture-buttons' }, stopButton, cancel),
  );
  document.body.appendChild(panel);
  const loop = { done: false };
  let previewing: Promise<void> = Promise.resolve();
  let ticker = 0;
  try {
    video.srcObject = stream;
    await video.play().catch(() => undefined);
    const cancelled = new Promise<null>((resolve) => cancel.addEventListener('click', () => resolve(null), { once: true }));
    // The countdown starts once the model draws the skeleton (the capture needs it loaded anyway): the
    // user sees where the model finds them before the recording starts. A model that cannot load
    // leaves the preview bare; the capture after Stop says why.
    status.textContent = t('capture.progress.loading');
    const model = await Promise.race([sharedPose().catch(() => undefined), cancelled]);
    if (model === null) return cancelledNotice(messages);
    if (model) {
      // The countdown waits for the first frame the model has read (the skeleton, or that it sees nobody).
      let first = () => {};
      const read = new Promise<void>((r) => (first = r));
      previewing = previewLoop(model, video, overlay, panel, loop, () => first());
      if ((await Promise.race([read, cancelled])) === null) return cancelledNotice(messages);
    }
    const wait = (ms: number) => new Promise<'next'>((r) => setTimeout(() => r('next'), ms));
    for (let s = COUNTDOWN_SECONDS; s > 0; s--) {
      countdown.textContent = String(s);
      status.textContent = t('capture.webcam.countdown', { seconds: s });
      if ((await Promise.race([wait(1000), cancelled])) === null) return cancelledNotice(messages);
    }
    countdown.textContent = '';
    // The preview's model stops while recording: on a machine without a GPU each frame holds the page
    // for about a second, which would delay Stop and take the recorder's CPU. The skeleton was seen.
    loop.done = true;
    await previewing;
    const started = new Date();
    const recorder = new MediaRecorder(stream, { mimeType: recorderMime(), videoBitsPerSecond: 4e6 });
    const chunks: Blob[] = [];
    recorder.ondataavailable = (e) => e.data.size && chunks.push(e.data);
    const stopped = new Promise<void>((r) => (recorder.onstop = () => r()));
    recorder.start(500);
    const t0 = performance.now();
    const tick = () => (status.textContent = t('capture.webcam.recording', { seconds: Math.floor((performance.now() - t0) / 1000) }));
    tick();
    ticker = window.setInterval(tick, 500);
    stopButton.disabled = false;
    const stop = new Promise<'stop'>((resolve) => stopButton.addEventListener('click', () => resolve('stop'), { once: true }));
    const how = await Promise.race([stop, cancelled]);
    recorder.stop();
    await stopped;
    if (how === null) return cancelledNotice(messages);
    const blob = new Blob(chunks, { type: recorder.mimeType || 'video/webm' });
    if (!blob.size) {
      messages.show('error', () => t('capture.webcam.empty'));
      return null;
    }
    return { name: recordingName(started), bytes: new Uint8Array(await blob.arrayBuffer()) };
  } finally {
    window.clearInterval(ticker);
    loop.done = true;
    for (const track of stream.getTracks()) track.stop();
    // The preview's last frame returns before the pose model is handed to the recording's capture.
    await previewing;
    video.srcObject = null;
    panel.remove();
  }
}

function cancelledNotice(messages: Pick<Messages, 'show'>): null {
  messages.show('notice', () => t('capture.webcam.cancelled'));
  return null;
}
