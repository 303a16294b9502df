/** Tiny DOM helpers: the UI is plain elements (no framework), built with strict-CSP-safe APIs only. */
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

/** A real <button> with an accessible name; icon buttons pass `icon` and get the label as aria-label and title. */
export function button(label: string, onClick: () => void, opts: { icon?: string; title?: string; id?: string; class?: string } = {}): HTMLButtonElement {
  const b = h('button', { type: 'button', id: opts.id, class: opts.class, title: opts.title ?? label });
  if (opts.icon) {
    b.setAttribute('aria-label', label);
    b.textContent = opts.icon;
    b.classList.add('icon');
  } else {
    b.textContent = label;
  }
  b.addEventListener('click', onClick);
  return b;
}

export function labelled(labelText: string, input: HTMLElement, title?: string): HTMLLabelElement {
  const l = h('label', { class: 'field', title });
  l.append(h('span', { text: labelText }), input);
  return l;
}
