/**
 * The page's side of the catalogue (shared/i18n): elements whose text comes from a message register
 * here once, and a language switch rewrites every one of them in place (no reload, no re-render of
 * the panels). Registration is a WeakMap entry plus a `data-i18n` marker, so elements that leave the
 * page are forgotten with them; a switch walks only the marked elements that are in the document.
 *
 *   tText(h('h2'), 'library.title')                     text from a key
 *   tAttr(input, 'aria-label', 'library.folderPath')    an attribute from a key
 *   localize(el, (el) => { el.textContent = ... })      anything computed (counts, command labels)
 */
import { onLocaleChange, t, getLocale, type MessageKey, type Params } from '../../shared/i18n';
import { hintAll, hintPhrases, watchPhrases } from './phrases';

type Render = (el: Element) => void;
const renders = new WeakMap<Element, Render[]>();

/** Runs `render` now and again after every language switch, while `el` is in the document. */
export function localize<E extends Element>(el: E, render: (el: E) => void): E {
  const list = renders.get(el) ?? [];
  // In Japanese, each render is followed by phrase hints (<wbr> between phrases: ui/phrases.ts).
  const rendered: Render = (e) => {
    (render as Render)(e);
    hintPhrases(e, getLocale());
  };
  list.push(rendered);
  renders.set(el, list);
  el.setAttribute('data-i18n', '');
  rendered(el);
  return el;
}

/** `el.textContent = t(key, params)`, kept in the current language. */
export function tText<E extends Element>(el: E, key: MessageKey, params?: Params): E {
  return localize(el, (e) => {
    e.textContent = t(key, params);
  });
}

/** `el.setAttribute(attr, t(key, params))`, kept in the current language. */
export function tAttr<E extends Element>(el: E, attr: string, key: MessageKey, params?: Params): E {
  return localize(el, (e) => e.setAttribute(attr, t(key, params)));
}

/** Re-applies every registered element under `root` (the whole document after a switch). */
export function relocalize(root: ParentNode = document): void {
  const marked = root instanceof Element && root.hasAttribute('data-i18n') ? [root] : [];
  for (const el of [...marked, ...root.querySelectorAll('[data-i18n]')]) for (const r of renders.get(el) ?? []) r(el);
}

let installed = false;
/** Keeps <html lang> and every registered element in the current language (called once at start). */
export function installPageLocale(): void {
  document.documentElement.lang = getLocale();
  if (installed) return;
  installed = true;
  // Anything marked before this point was rendered in the start-up language (English).
  relocalize(document);
  hintAll(document, getLocale());
  watchPhrases(document.body, getLocale);
  onLocaleChange((locale) => {
    document.documentElement.lang = locale;
    relocalize(document);
    hintAll(document, locale);
  });
}
