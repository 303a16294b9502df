/**
 * Which language the page shows: the user's choice from the settings, else the system's — Electron's
 * app.getLocale() handed to the page as ?locale=..., or the browser's navigator.languages. A choice
 * is written back to the settings (and to localStorage, for hosts without settings) and applied at
 * once: every marked element is rewritten, nothing reloads.
 */
import type { LanguageSetting, StudioApi } from '../../shared/contract/studioApi';
import { LANGUAGE_SETTINGS } from '../../shared/contract/studioApi';
import { detectLocale, setLocale, type Locale } from '../../shared/i18n';
import { installPageLocale } from '../ui/i18n';

const STORAGE_KEY = 'vrma-studio.language';

/** The system's language for this page: Electron's locale in the URL first, then the browser's list. */
export function systemLocale(): Locale {
  const fromMain = new URLSearchParams(location.search).get('locale');
  return detectLocale([...(fromMain ? [fromMain] : []), ...(navigator.languages ?? []), navigator.language].filter(Boolean));
}

export function localeFor(setting: LanguageSetting): Locale {
  return setting === 'system' ? systemLocale() : setting;
}

function storedLocal(): LanguageSetting | null {
  try {
    const v = localStorage.getItem(STORAGE_KEY);
    return LANGUAGE_SETTINGS.includes(v as LanguageSetting) ? (v as LanguageSetting) : null;
  } catch {
    return null;
  }
}

export class LanguageChoice {
  private current: LanguageSetting = 'system';
  private readonly listeners = new Set<(s: LanguageSetting) => void>();

  constructor(private readonly api: StudioApi | null) {}

  get setting(): LanguageSetting {
    return this.current;
  }

  /** Reads the stored choice and applies it before the UI is built (so the first frame is in the right language). */
  async load(): Promise<void> {
    let setting = storedLocal() ?? 'system';
    if (this.api) {
      try {
        setting = (await this.api.getSettings()).language ?? setting;
      } catch {
        /* no settings service: the local copy stands */
      }
    }
    this.current = setting;
    // Subscribed first, so elements made before the language was known (the viewport) are rewritten too.
    installPageLocale();
    setLocale(localeFor(setting));
  }

  /** The user picked a language (studio control or desktop menu): apply now, remember it. */
  async choose(setting: LanguageSetting): Promise<void> {
    this.current = setting;
    try {
      localStorage.setItem(STORAGE_KEY, setting);
    } catch {
      /* storage unavailable */
    }
    // Stored first: the desktop menu, rebuilt when the page re-sends its commands, reads the language from the settings.
    await this.api?.setSettings({ language: setting }).catch(() => undefined);
    setLocale(localeFor(setting));
    for (const l of this.listeners) l(setting);
  }

  onChange(cb: (s: LanguageSetting) => void): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }
}
