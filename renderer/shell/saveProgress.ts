/**
 * Progress of a Save that takes a while (an hour-long motion is a 413 MB file): after half a second
 * a bar among the notices with the share sent and Cancel, which stops the Save between two pieces of
 * the file (renderer/platform/filePieces.ts) so the file on disk stays as it was. Once every piece is
 * sent the file is being replaced: Cancel is then disabled, since it could no longer keep that promise.
 */
import type { SaveControl } from '../app/document';
import { h } from '../ui/dom';
import { tAttr, tText } from '../ui/i18n';
import { t } from '../../shared/i18n';

/** A Save shows its progress only past this (a small file is done before a bar would be read). */
export const SAVE_PROGRESS_AFTER_MS = 500;

export async function withSaveProgress<T>(messages: HTMLElement, file: string, run: (control: SaveControl) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  let done = 0;
  const shown: { box: HTMLElement | null } = { box: null };
  let frame = 0;
  const text = h('span', { id: 'save-progress-text' });
  const bar = h('progress', { id: 'save-progress-bar', max: 1, value: 0 }) as HTMLProgressElement;
  bar.setAttribute('aria-label', t('studio.doc.savingProgress'));
  const cancel = tText(h('button', { type: 'button', id: 'save-progress-cancel' }), 'studio.doc.saveCancel');
  tAttr(cancel, 'title', 'studio.doc.saveCancelHelp');
  cancel.addEventListener('click', () => {
    cancel.disabled = true;
    controller.abort();
  });
  const draw = () => {
    frame = 0;
    const percent = String(Math.floor(done * 100));
    text.textContent = t('studio.doc.saving', { file, percent });
    bar.value = done;
    bar.setAttribute('aria-valuenow', percent);
    if (done >= 1) cancel.disabled = true;
  };
  const show = setTimeout(() => {
    const box = h('div', { id: 'save-progress', class: 'message notice progress', role: 'group' }, text, bar, cancel);
    box.setAttribute('aria-label', t('studio.doc.savingProgress'));
    draw();
    messages.append(box);
    shown.box = box;
  }, SAVE_PROGRESS_AFTER_MS);
  try {
    return await run({
      signal: controller.signal,
      onProgress: (d) => {
        done = d;
        if (shown.box && !frame) frame = requestAnimationFrame(draw);
      },
    });
  } finally {
    clearTimeout(show);
    if (frame) cancelAnimationFrame(frame);
    shown.box?.remove();
  }
}
