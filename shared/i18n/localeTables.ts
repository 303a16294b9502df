/**
 * Where translate() finds each language's messages. Here: every language, built from the catalogue
 * (Electron main, the CLI, tests). The renderer's build swaps this module for
 * renderer/app/lazyLocaleTables.ts (electron.vite.config.ts), which holds English and fetches any
 * other language as its own chunk when it is chosen, so an English page never downloads or parses the
 * Japanese text before its first frame (issue 30). Both export the same two names.
 */
import { CATALOGUE } from './catalogue';
import type { Locale } from './locale';

export const TABLES: Partial<Record<Locale, Readonly<Record<string, string>>>> = { ...CATALOGUE };

/** Resolves once `locale`'s messages are in TABLES (here they always are). */
export function loadTable(_locale: Locale): Promise<void> {
  return Promise.resolve();
}
