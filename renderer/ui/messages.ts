/**
 * Messages shown in the UI (errors, notices): a polite live region so screen readers hear them,
 * each dismissable, errors kept until dismissed, notices fading after a while.
 */
import { h, button } from './dom';

export type MessageKind = 'error' | 'notice' | 'success';

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
    this.element = h('div', { class: 'messages', role: 'status', 'aria-live': 'polite' });
  }

  show(kind: MessageKind, text: string): void {
    this.log.push({ kind, text, at: Date.now() });
    const item = h('div', { class: `message ${kind}` });
    if (kind === 'error') item.setAttribute('role', 'alert');
    item.append(h('span', { text }));
    item.append(button('Dismiss message', () => item.remove(), { icon: '×' }));
    this.element.append(item);
    while (this.element.children.length > 5) this.element.firstElementChild?.remove();
    if (kind !== 'error') setTimeout(() => item.remove(), 6000);
  }

  error(text: string): void {
    this.show('error', text);
  }

  notice(text: string): void {
    this.show('notice', text);
  }
}

export function errorText(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
