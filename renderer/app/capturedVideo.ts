/**
 * A video opened (Open…, drop, the library) becomes a captured motion: the capture itself (the
 * detector, its panel with the video, progress and Cancel) is a view, plugged in by the shell
 * (renderer/capture); this opens its result as an ordinary unsaved document named after the video,
 * whose Save writes NAME.vrma beside it (the same naming as a converted file: shared/convert/outputNames).
 */
import type { Motion } from '../../shared/motion/types';
import { documentName } from '../../shared/formats/outputNames';
import { t } from '../../shared/i18n';
import type { Messages } from '../ui/messages';
import type { OpenOptions } from './document';

export interface VideoCapturer {
  /** The motion captured from the video, or null when the user cancelled (the panel said so). */
  capture(name: string, bytes: Uint8Array, messages: Pick<Messages, 'show'>): Promise<{ motion: Motion; frames: number; found: number } | null>;
}

/** Set by the shell; without it (tests of the kernel alone) a video does not open. */
export const videoCapture: { capturer: VideoCapturer | null } = { capturer: null };

/** What of the studio this needs (the Studio, without a cycle back to it). */
export interface CaptureHost {
  confirmLeave(): Promise<boolean>;
  openDocument(motion: Motion, opts: OpenOptions): void;
  readonly messages: Pick<Messages, 'show'>;
}

export async function openCapturedVideo(studio: CaptureHost, name: string, bytes: Uint8Array, path?: string): Promise<boolean> {
  if (!videoCapture.capturer) throw new Error('video capture is not available in this window');
  const result = await videoCapture.capturer.capture(name, bytes, studio.messages);
  if (!result || !(await studio.confirmLeave())) return false;
  const stem = documentName(name);
  studio.openDocument(result.motion, { name: stem, path, converted: true, label: 'Capture' });
  studio.messages.show('success', () => t('capture.done', { file: name, frames: result.frames, found: result.found, name: stem }));
  return true;
}
