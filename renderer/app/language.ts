/**
 * Which language the page shows: the user's choice from the settings, else the system's — Electron's
 * app.getLocale() handed to the page as ?locale=..., or the browser's navigator.languages. A choice
 * is written back to the settings (the studio's one settings client) and applied at once: every
 * marked element is rewritten, nothing reloads.
 */
import type { LanguageSetting } from '../../shared/contract/studioApi';
import type { SettingsClient } from './settings';
import { detectLocale, loadLocale, setLocale, type Locale } from '../../shared/i18n';
import { installPageLocale } from '../ui/i18n';

/** The system's language for this page: Electron's locale in the URL first, then the browser's list. */
export function systemLocale(): Locale {
  const fromMain = new URLSearchParams(location.search).get('locale');
  return detectLocale([...(fromMain ? [fromMain] : []), ...(navigator.languages ?? []), navigator.language].filter(Boolean));
}

export function localeFor(setting: LanguageSetting): Locale {
  return setting === 'system' ? systemLocale() : setting;
}

/** Switches to `locale` once its messages are there; a language that cannot be fetched leaves the page as it is. */
async function applyLocale(locale: Locale): Promise<void> {
  try {
    await loadLocale(locale);
  } catch (e) {
    console.warn(`the ${locale} messages could not be loaded:`, e);
    return;
  }
  setLocale(locale);
}

export class LanguageChoice {
  private readonly listeners = new Set<(s: LanguageSetting) => void>();

  constructor(private readonly settings: SettingsClient) {}

  get setting(): LanguageSetting {
    return this.settings.value.language;
  }

  /** Reads the stored choice and applies it before the UI is built (so the first frame is in the right language). */
  async load(): Promise<void> {
    const { language } = await this.settings.ready();
    // Subscribed first, so elements made before the language was known (the viewport) are rewritten too.
    installPageLocale();
    await applyLocale(localeFor(language));
  }

  /** The user picked a language (studio control or desktop menu): apply now, remember it. */
  async choose(setting: LanguageSetting): Promise<void> {
    // Stored first: the desktop menu, rebuilt when the page re-sends its commands, reads the language from the settings.
    // Not stored (no settings service): the choice lasts for this page.
    await this.settings.set({ language: setting }).catch(() => undefined);
    await applyLocale(localeFor(setting));
    for (const l of this.listeners) l(setting);
  }

  onChange(cb: (s: LanguageSetting) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }
}
