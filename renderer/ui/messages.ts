/**
 * Messages shown in the UI (errors, notices): a polite live region so screen readers hear them,
 * each dismissable, errors kept until dismissed, notices fading after a while. A message given as a
 * function is re-rendered after a language switch (pass `() => t(...)`), so a toast on screen follows it.
 */
import { h, button } from './dom';
import { localize, tAttr } from './i18n';
import { t, translate, hasMessage } from '../../shared/i18n';

export type MessageKind = 'error' | 'notice' | 'success';
/** A plain string (already final: a file name, a report) or a function read again after a language switch. */
export type MessageText = string | (() => string);

export interface ShownMessage {
  readonly kind: MessageKind;
  readonly text: string;
  readonly at: number;
}

export class Messages {
  readonly element: HTMLElement;
  /** Everything shown since start (tests read it). */
  readonly log: ShownMessage[] = [];

  constructor() {
    this.element = tAttr(h('div', { class: 'messages', role: 'status', 'aria-live': 'polite' }), 'aria-label', 'studio.message.region');
  }

  show(kind: MessageKind, text: MessageText): void {
    const read = typeof text === 'function' ? text : () => text;
    this.log.push({ kind, text: read(), at: Date.now() });
    const item = h('div', { class: `message ${kind}` });
    if (kind === 'error') item.setAttribute('role', 'alert');
    item.append(localize(h('span'), (s) => (s.textContent = read())));
    const dismiss = button(t('studio.message.dismiss'), () => item.remove(), { icon: '×' });
    localize(dismiss, (b) => {
      b.setAttribute('aria-label', t('studio.message.dismiss'));
      b.title = t('studio.message.dismiss');
    });
    item.append(dismiss);
    this.element.append(item);
    while (this.element.children.length > 5) this.element.firstElementChild?.remove();
    if (kind !== 'error') setTimeout(() => item.remove(), 6000);
  }

  error(text: MessageText): void {
    this.show('error', text);
  }

  notice(text: MessageText): void {
    this.show('notice', text);
  }
}

/**
 * What went wrong, for the user, in the current language: a MotionError or StudioApi error code
 * gets its catalogue text (`error.<CODE>` / `apiError.<CODE>`) with the core's message as the
 * detail (line numbers, bone names: the specific part); anything else shows its message.
 * Call it inside a message function so it is re-read after a language switch.
 */
export function errorText(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string') {
    const key = hasMessage(`error.${code}`) ? `error.${code}` : hasMessage(`apiError.${code}`) ? `apiError.${code}` : null;
    if (key) return message ? t('errors.withDetail', { problem: translate(key), detail: message }) : translate(key);
  }
  return message;
}
