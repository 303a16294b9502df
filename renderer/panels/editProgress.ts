/**
 * The progress bar of a long edit run off the main thread (renderer/app/longEdits.ts): the edit's
 * name and percentage, a bar, and Cancel, which stops the edit and leaves the motion as it was.
 * Hidden while nothing runs. Progress messages arrive up to ~100 times an edit; the bar is written
 * once per animation frame at most.
 */
import type { LongEdits, LongEditJob } from '../app/longEdits';
import { h } from '../ui/dom';
import { localize, tAttr, tText } from '../ui/i18n';
import { t } from '../../shared/i18n';

export function createEditProgress(jobs: LongEdits): HTMLElement {
  const text = h('span', { id: 'edit-progress-text', class: 'edit-progress-text' });
  const bar = h('progress', { id: 'edit-progress-bar', max: 1, value: 0 }) as HTMLProgressElement;
  const cancel = tText(h('button', { type: 'button', id: 'edit-progress-cancel' }), 'edits.progressCancel');
  tAttr(cancel, 'title', 'edits.progressCancelHelp');
  cancel.addEventListener('click', () => jobs.cancel());
  const box = h('div', { id: 'edit-progress', class: 'edit-progress', role: 'status', hidden: true }, text, bar, cancel);
  let shown: LongEditJob | null = null;
  let frame = 0;
  localize(text, (el) => {
    el.textContent = shown ? t('edits.progress', { edit: shown.label, percent: String(Math.floor(shown.done * 100)) }) : '';
  });
  const draw = () => {
    frame = 0;
    box.hidden = shown === null;
    if (!shown) return;
    bar.value = shown.done;
    bar.setAttribute('aria-valuenow', String(Math.floor(shown.done * 100)));
    text.textContent = t('edits.progress', { edit: shown.label, percent: String(Math.floor(shown.done * 100)) });
  };
  jobs.events.on('job', (job) => {
    const started = shown === null && job !== null;
    shown = job;
    // Shown (or hidden) at once, so Cancel is there from the start; the percentage once a frame.
    if (started || job === null) draw();
    else if (!frame) frame = requestAnimationFrame(draw);
  });
  return box;
}
