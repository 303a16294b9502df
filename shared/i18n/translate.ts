/**
 * The current UI language and `t()`. One module-level locale for the whole process (the page, or
 * Electron main for the menu); everything that shows text subscribes with onLocaleChange and redraws.
 */
import type { MessageKey } from './catalogue';
import { TABLES, loadTable } from './localeTables';
import { formatMessage, type Params } from './format';
import type { Locale } from './locale';

let current: Locale = 'en';
const listeners = new Set<(locale: Locale) => void>();

export function getLocale(): Locale {
  return current;
}

/**
 * Makes `locale`'s messages available (the renderer fetches a language other than English on demand):
 * call before setLocale. Until it resolves, translate() answers in English.
 */
export function loadLocale(locale: Locale): Promise<void> {
  return loadTable(locale);
}

/** Switches the language and tells every subscriber (no-op when unchanged); its messages must be loaded (loadLocale). */
export function setLocale(locale: Locale): void {
  if (locale === current) return;
  current = locale;
  for (const l of [...listeners]) l(locale);
}

/** Called after every language switch; returns the unsubscribe function. */
export function onLocaleChange(cb: (locale: Locale) => void): () => void {
  listeners.add(cb);
  return () => listeners.delete(cb);
}

/** The message for a key in the current language, with its parameters filled in. */
export function t(key: MessageKey, params?: Params): string {
  return translate(key, params);
}

/** Whether a key exists (for keys built at run time: `edit.${id}.label`, `error.${code}`). */
export function hasMessage(key: string): key is MessageKey {
  return Object.hasOwn(TABLES.en!, key);
}

/**
 * t() for a key built at run time. A missing key falls back to `fallback` (or the key itself), so a
 * new edit or error code without a translation still shows something instead of breaking the UI;
 * the catalogue tests make sure that does not ship.
 */
export function translate(key: string, params?: Params, fallback?: string, locale: Locale = current): string {
  const source = TABLES[locale]?.[key] ?? TABLES.en![key];
  if (source === undefined) return fallback ?? key;
  return formatMessage(source, params, locale);
}
