/** Tiny DOM helpers: the UI is plain elements (no framework), built with strict-CSP-safe APIs only. */
import { localize } from './i18n';

/** A shown text: final as given, or a function (usually `() => t(key)`) read again after a language switch. */
export type UiText = string | (() => string);

type Attrs = Record<string, string | number | boolean | undefined | null>;
type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = String(v);
    else if (k === 'text') el.textContent = String(v);
    else if (v === true) el.setAttribute(k, '');
    else el.setAttribute(k, String(v));
  }
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(c);
  return el;
}

const read = (text: UiText): string => (typeof text === 'function' ? text() : text);
const isLive = (...texts: (UiText | undefined)[]) => texts.some((x) => typeof x === 'function');

/** A real <button> with an accessible name; icon buttons pass `icon` and get the label as aria-label and title. */
export function button(label: UiText, onClick: () => void, opts: { icon?: string; title?: UiText; id?: string; class?: string } = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', id: opts.id, class: opts.class });
  if (opts.icon) {
    b.textContent = opts.icon;
    b.classList.add('icon');
  }
  const render = () => {
    b.title = read(opts.title ?? label);
    if (opts.icon) b.setAttribute('aria-label', read(label));
    else b.textContent = read(label);
  };
  if (isLive(label, opts.title)) localize(b, render);
  else render();
  b.addEventListener('click', onClick);
  return b;
}

export function labelled(labelText: UiText, input: HTMLElement, title?: UiText): HTMLLabelElement {
  const l = h('label', { class: 'field' });
  const span = h('span');
  const render = () => {
    span.textContent = read(labelText);
    if (title !== undefined) l.title = read(title);
  };
  if (isLive(labelText, title)) localize(l, render);
  else render();
  l.append(span, input);
  return l;
}
