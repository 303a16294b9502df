/** The supported UI languages and how a preference list (OS, browser, settings) picks one. */
export const LOCALES = ['en', 'ja'] as const;
export type Locale = (typeof LOCALES)[number];

/** A stored or passed value to a Locale, or null when it is not one (settings sanitizing, IPC input). */
export function parseLocale(v: unknown): Locale | null {
  return typeof v === 'string' && (LOCALES as readonly string[]).includes(v) ? (v as Locale) : null;
}

/**
 * The first supported language in a preference list (navigator.languages, Electron's app.getLocale()
 * and app.getPreferredSystemLanguages()): "ja-JP" -> ja, "en-GB" -> en, "fr-FR, ja" -> ja. English otherwise.
 */
export function detectLocale(languages: readonly string[]): Locale {
  for (const tag of languages) {
    const primary = String(tag).trim().toLowerCase().split(/[-_]/)[0];
    const l = parseLocale(primary);
    if (l) return l;
  }
  return 'en';
}
