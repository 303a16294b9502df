/**
 * A file input the user sees in the studio's language: the browser's own file control writes its
 * button and "no file chosen" in the browser's language (English in most Chromium/Electron builds),
 * so the real input is visually hidden (still labelled, focusable and usable by tests and screen
 * readers) and a button and the chosen file's name stand in for it.
 */
import { h } from './dom';
import { localize } from './i18n';
import { t, type MessageKey } from '../../shared/i18n';

export function filePicker(input: HTMLInputElement, buttonKey: MessageKey = 'studio.file.choose'): HTMLElement {
  input.classList.add('visually-hidden');
  const button = h('button', { type: 'button', class: 'file-picker-button', tabindex: -1, 'aria-hidden': 'true' });
  const name = h('span', { class: 'file-picker-name' });
  const render = () => {
    button.textContent = t(buttonKey);
    name.textContent = input.files?.[0]?.name ?? t('studio.file.none');
  };
  button.addEventListener('click', () => input.click());
  input.addEventListener('change', render);
  return localize(h('span', { class: 'file-picker' }, input, button, name), render);
}
