/**
 * A video opened (Open…, drop, the library) becomes a captured motion: the capture itself (the
 * detector, its panel with the video, progress and Cancel) is a view, plugged in by the shell
 * (renderer/capture); this opens its result as an ordinary unsaved document named after the video,
 * whose Save writes NAME.vrma beside it (the same naming as a converted file: shared/convert/outputNames).
 * A webcam recording takes the same path as a file without a folder, so its Save asks where.
 */
import type { Motion } from '../../shared/motion/types';
import { documentName } from '../../shared/formats/outputNames';
import { t } from '../../shared/i18n';
import type { Messages } from '../ui/messages';
import type { OpenOptions } from './document';

/** What a capture reads besides the body (Settings.capture). */
export interface CaptureDetails {
  readonly hands: boolean;
  readonly face: boolean;
}

export interface VideoCapturer {
  /** The motion captured from the video, or null when the user cancelled (the panel said so). */
  capture(name: string, bytes: Uint8Array, messages: Pick<Messages, 'show'>, details: CaptureDetails): Promise<{ motion: Motion; frames: number; found: number } | null>;
  /**
   * A recording from the webcam (preview with the skeleton, countdown, Stop) as a video file named
   * after the moment it started, or null when cancelled, denied or without a camera (a notice said which).
   */
  record(messages: Pick<Messages, 'show'>): Promise<{ name: string; bytes: Uint8Array } | null>;
}

/** Set by the shell; without it (tests of the kernel alone) a video does not open. */
export const videoCapture: { capturer: VideoCapturer | null } = { capturer: null };

/** What of the studio this needs (the Studio, without a cycle back to it). */
export interface CaptureHost {
  confirmLeave(): Promise<boolean>;
  openDocument(motion: Motion, opts: OpenOptions): void;
  readonly messages: Pick<Messages, 'show'>;
  readonly settings: { readonly value: { readonly capture: CaptureDetails } };
  openFile(name: string, bytes: Uint8Array, path?: string): Promise<boolean>;
  readonly clock: { readonly playing: boolean };
  setPlaying(playing: boolean): void;
}

export async function openCapturedVideo(studio: CaptureHost, name: string, bytes: Uint8Array, path?: string): Promise<boolean> {
  if (!videoCapture.capturer) throw new Error('video capture is not available in this window');
  // Playback pauses while the detector reads (and resumes after): the motion playing beside the video is
  // not the one being read, and without a GPU every frame the viewport draws costs more CPU than the pose
  // model's frame (1,280×800 in software: bench/captureMinute.bench.ts, 212 CPU ms per video frame playing).
  const wasPlaying = studio.clock.playing;
  studio.setPlaying(false);
  try {
    const result = await videoCapture.capturer.capture(name, bytes, studio.messages, studio.settings.value.capture);
    if (!result || !(await studio.confirmLeave())) return false;
    const stem = documentName(name);
    studio.openDocument(result.motion, { name: stem, path, converted: true, label: 'Capture' });
    // A recording has no folder: Save asks where (the document's Save falls back to Save As).
    const done = path ? 'capture.done' : 'capture.doneUnsaved';
    studio.messages.show('success', () => t(done, { file: name, frames: result.frames, found: result.found, name: stem }));
    return true;
  } finally {
    if (wasPlaying) studio.setPlaying(true);
  }
}

/** Record from webcam: the recording then takes a video file's path (Open), without a folder. */
export async function recordFromWebcam(studio: CaptureHost): Promise<boolean> {
  if (!videoCapture.capturer) throw new Error('video capture is not available in this window');
  const recording = await videoCapture.capturer.record(studio.messages);
  return recording ? studio.openFile(recording.name, recording.bytes) : false;
}
