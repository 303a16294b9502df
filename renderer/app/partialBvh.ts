/**
 * Opening a BVH that is cut short (issue 27): the reader refuses it with the frame where it broke;
 * the studio asks whether to open the frames before it (shared/convert/bvh/keepFrames.ts) and, if
 * so, opens those through the same path as any file, with a note of how many of how many.
 */
import type { Messages } from '../ui/messages';
import { declaredFrames, keepFrames, readableFrames } from '../../shared/convert/bvh/keepFrames';
import { t } from '../../shared/i18n';

/** What of the studio this needs (the Studio, without a cycle back to it). */
export interface PartialBvhHost {
  readonly questions: { partialBvh(file: string, frames: number, total: number): Promise<boolean> } | null;
  openFile(name: string, bytes: Uint8Array, path?: string): Promise<boolean>;
  readonly messages: Pick<Messages, 'show'>;
}

/** null: not a cut-short BVH (or no one to ask); else whether the frames that read were opened. */
export async function openReadableFrames(studio: PartialBvhHost, name: string, bytes: Uint8Array, path: string | undefined, error: unknown): Promise<boolean | null> {
  const frames = /\.bvh$/i.test(name) ? readableFrames(error) : 0;
  if (frames <= 0 || !studio.questions) return null;
  const text = new TextDecoder().decode(bytes);
  const total = declaredFrames(text);
  if (!(await studio.questions.partialBvh(name, frames, total))) return null;
  const opened = await studio.openFile(name, new TextEncoder().encode(keepFrames(text, frames)), path);
  if (opened) studio.messages.show('notice', () => t('bvh.partialOpened', { file: name, frames, total }));
  return opened;
}
