/**
 * The studio's in-page dialogs: a modal <dialog> in the studio's style (focus moves into it and
 * stays there, Escape cancels, Enter takes the default button), so questions never go through
 * window.confirm/prompt.
 *
 *   const choice = await choose({ title, text, choices: [{ id: 'save', label: 'Save', default: true }, ...], cancel: 'cancel' });
 */
import { h } from './dom';

export interface Choice<T extends string> {
  readonly id: T;
  readonly label: string;
  /** Focused first and taken by Enter. */
  readonly default?: boolean;
  readonly danger?: boolean;
}

export interface DialogOptions<T extends string> {
  readonly title: string;
  readonly text?: string;
  readonly choices: readonly Choice<T>[];
  /** What Escape (or closing) answers. */
  readonly cancel: T;
  /** Extra content between the text and the buttons (fields of a Save As dialog). */
  readonly body?: HTMLElement;
  /** Called before a choice other than `cancel` closes the dialog; return false to keep it open. */
  readonly accept?: (choice: T) => boolean;
  /** Element to focus first instead of the default button. */
  readonly focus?: HTMLElement;
  readonly id?: string;
}

let openCount = 0;

/** True while an in-page dialog is open (shortcuts stay off meanwhile). */
export function dialogOpen(): boolean {
  return openCount > 0;
}

export function choose<T extends string>(opts: DialogOptions<T>): Promise<T> {
  const titleId = `dialog-title-${Math.random().toString(36).slice(2)}`;
  const dialog = h('dialog', { class: 'studio-dialog', id: opts.id, 'aria-labelledby': titleId });
  const buttons = opts.choices.map((c) => {
    const b = h('button', { type: 'button', class: `${c.default ? 'primary' : ''}${c.danger ? ' danger' : ''}`.trim() || undefined, 'data-choice': c.id, text: c.label });
    return b;
  });
  dialog.append(h('h2', { id: titleId, text: opts.title }));
  if (opts.text) dialog.append(h('p', { class: 'dialog-text', text: opts.text }));
  if (opts.body) dialog.append(opts.body);
  dialog.append(h('div', { class: 'dialog-buttons' }, ...buttons));
  document.body.append(dialog);
  openCount++;
  return new Promise<T>((resolve) => {
    let done = false;
    const finish = (choice: T) => {
      if (done) return;
      if (choice !== opts.cancel && opts.accept && !opts.accept(choice)) return;
      done = true;
      openCount--;
      dialog.close();
      dialog.remove();
      resolve(choice);
    };
    buttons.forEach((b, i) => b.addEventListener('click', () => finish(opts.choices[i].id)));
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      finish(opts.cancel);
    });
    dialog.addEventListener('keydown', (e) => {
      // Keys pressed in the dialog are the dialog's: never studio shortcuts.
      e.stopPropagation();
      if (e.key === 'Enter' && !(e.target instanceof HTMLButtonElement)) {
        const def = opts.choices.find((c) => c.default);
        if (def) {
          e.preventDefault();
          finish(def.id);
        }
      }
    });
    dialog.showModal();
    (opts.focus ?? buttons[opts.choices.findIndex((c) => c.default)] ?? buttons[0])?.focus();
  });
}
