/**
 * The renderer build's shared/i18n/localeTables.ts (swapped in by electron.vite.config.ts): English
 * is in the start chunk, every other language is a chunk of its own, fetched by loadTable when it is
 * chosen (before the first frame when it is the page's language). The tables are the catalogue's own,
 * combined at build time (virtual:vrma-i18n/<locale>).
 */
import en from 'virtual:vrma-i18n/en';
import type { Locale } from '../../shared/i18n/locale';

export const TABLES: Partial<Record<Locale, Readonly<Record<string, string>>>> = { en };

const LOADERS: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Readonly<Record<string, string>> }>> = {
  ja: () => import('virtual:vrma-i18n/ja'),
};

const pending = new Map<Locale, Promise<void>>();

export function loadTable(locale: Locale): Promise<void> {
  if (TABLES[locale]) return Promise.resolve();
  let load = pending.get(locale);
  if (!load) {
    load = LOADERS[locale as Exclude<Locale, 'en'>]().then(
      (m) => void (TABLES[locale] = m.default),
      (e: unknown) => {
        // A failed fetch (the host stopped) may be tried again; meanwhile the page stays in English.
        pending.delete(locale);
        throw e;
      },
    );
    pending.set(locale, load);
  }
  return load;
}
