/**
 * Japanese line breaks at phrase boundaries (issue 27): Japanese has no spaces, so a browser breaks
 * a label anywhere between two characters ("名前を付け / て保存…"). Controls in Japanese get
 * `word-break: keep-all` (styles.css: no break inside a run of kana and kanji) and a <wbr> between
 * phrases, so a label wraps only between "名前を / 付けて / 保存…". A phrase is a content word with the
 * particles, okurigana and punctuation that follow it (the bunsetsu BudouX finds), built here from
 * the words of Intl.Segmenter (ICU's dictionary): a hiragana word, a punctuation mark or a closing
 * bracket joins the phrase before it, a katakana or Latin word continues a run of its own script,
 * and an opening bracket joins the phrase after it. A line then never starts with 、。 or a closing
 * bracket. The element's textContent is unchanged (<wbr> has no text).
 */
const HIRAGANA = /^[\u3041-\u309f\u30fc]+$/u;
const KATAKANA_END = /[\u30a0-\u30ff\uff66-\uff9f]$/u;
const KATAKANA_START = /^[\u30a0-\u30ff\uff66-\uff9f]/u;
// ASCII . , : ; are not here: in Japanese text they start an extension (.vrma) or a Latin word more often than they end one.
const CLOSING = /^[、。，．!?！？）)\]」』】〉》…・ー〜～%％]+$/u;
const OPENING_END = /[（(「『【〈《[]$/u;
const LATIN_END = /[A-Za-z0-9._\-+×]$/u;
const LATIN_START = /^[A-Za-z0-9._\-+×]/u;
const SENTENCE_END = /[、。，！？!?]$/u;
const CJK = /[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]/u;

let segmenter: Intl.Segmenter | null | undefined;
function words(text: string): string[] {
  if (segmenter === undefined) segmenter = typeof Intl !== 'undefined' && 'Segmenter' in Intl ? new Intl.Segmenter('ja', { granularity: 'word' }) : null;
  return segmenter ? [...segmenter.segment(text)].map((s) => s.segment) : [text];
}

/** `text` cut into phrases (joined they give `text` back). */
export function japanesePhrases(text: string): string[] {
  const phrases: string[] = [];
  for (const w of words(text)) {
    const last = phrases.at(-1);
    if (last === undefined) {
      phrases.push(w);
      continue;
    }
    const join = CLOSING.test(w) ||
      /^\s+$/u.test(w) ||
      OPENING_END.test(last) ||
      (!SENTENCE_END.test(last) && HIRAGANA.test(w)) ||
      (KATAKANA_END.test(last) && KATAKANA_START.test(w)) ||
      (LATIN_END.test(last) && LATIN_START.test(w));
    if (join) phrases[phrases.length - 1] = last + w;
    else phrases.push(w);
  }
  return phrases;
}

/** The elements that get phrase hints: labels, buttons, headings, hints, reasons, toasts. */
export const PHRASE_ELEMENTS = 'button, label, summary, h1, h2, h3, .hint, .reason, .field > span, .message-text, .dialog-text, [role=tab]';

/**
 * Phrase hints also for text set outside the catalogue's localize() (a reason line, a button whose
 * count changes): a MutationObserver re-hints a matching element whose text changed, in Japanese.
 * Hinting replaces the text with text + <wbr>, which the next look skips (it has element children).
 */
export function watchPhrases(root: HTMLElement, locale: () => string): void {
  const hint = (el: Element | null) => {
    if (el?.matches(PHRASE_ELEMENTS)) hintPhrases(el, locale());
  };
  new MutationObserver((records) => {
    if (locale() !== 'ja') return;
    for (const r of records) {
      const target = r.target.nodeType === Node.TEXT_NODE ? r.target.parentElement : (r.target as Element);
      hint(target);
      for (const n of r.addedNodes) if (n.nodeType === Node.ELEMENT_NODE) { for (const el of [n as Element, ...(n as Element).querySelectorAll(PHRASE_ELEMENTS)]) hint(el); }
    }
  }).observe(root, { subtree: true, childList: true, characterData: true });
}

/** Every matching element under `root` (after a switch to Japanese). */
export function hintAll(root: ParentNode, locale: string): void {
  for (const el of root.querySelectorAll(PHRASE_ELEMENTS)) hintPhrases(el, locale);
}

/** Elements whose text must stay a single text node. */
const TEXT_ONLY = new Set(['OPTION', 'TITLE', 'TEXTAREA', 'SCRIPT', 'STYLE']);

/**
 * In Japanese, puts a <wbr> between the phrases of an element that holds only text (a label, a
 * button, a hint). Anything else is left as it is.
 */
export function hintPhrases(el: Element, locale: string): void {
  if (locale !== 'ja' || el.childElementCount > 0 || TEXT_ONLY.has(el.tagName)) return;
  const text = el.textContent ?? '';
  if (!CJK.test(text)) return;
  const phrases = japanesePhrases(text);
  if (phrases.length < 2) return;
  const doc = el.ownerDocument;
  const parts: Node[] = [];
  phrases.forEach((p, i) => {
    if (i > 0) parts.push(doc.createElement('wbr'));
    parts.push(doc.createTextNode(p));
  });
  el.replaceChildren(...parts);
}
