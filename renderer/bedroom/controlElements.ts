/** The bedroom panel's elements: a tag with properties, a button and a label whose words follow the language. */
import type { MessageKey } from '../../shared/i18n';
import { tAttr, tText } from '../ui/i18n';

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Partial<HTMLElementTagNameMap[K]> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  Object.assign(e, props);
  for (const c of children) e.append(c);
  return e;
}

/** A button whose text and title follow the language. */
export function button(text: MessageKey, title?: MessageKey): HTMLButtonElement {
  const b = tText(el('button', { type: 'button' }), text);
  return title ? tAttr(b, 'title', title) : b;
}

/** A label with a text (following the language) and the control after it. */
export function labelled(text: MessageKey, control: HTMLElement, before = false): HTMLLabelElement {
  const words = tText(el('span', {}), text);
  return before ? el('label', {}, control, ' ', words) : el('label', {}, words, ' ', control);
}
