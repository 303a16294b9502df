/**
 * The page's one settings client: every view reads the studio's Settings here and changes them here
 * (language, falloff, onion skin, export format and "Smaller file", splitters, the bedroom). A change
 * applies at once (merged and clamped by the contract's applySettingsPatch, as main stores it) and is
 * sent to the StudioApi, whose settings.json keeps it across restarts of the app and of the browser
 * host (whose origin changes every run, so the page's own storage would forget). Without a StudioApi
 * (a plain static build) the settings are kept in the page's storage, under one key.
 */
import { applySettingsPatch, DEFAULT_SETTINGS, readSettings, type Settings, type SettingsPatch, type StudioApi } from '../../shared/contract/studioApi';

const STORAGE_KEY = 'vrma-studio.settings';

type Listener = (settings: Settings, patch: SettingsPatch | null) => void;
/** The page's storage, as far as the client uses it (a test may hand in its own). */
export type SettingsStorage = Pick<Storage, 'getItem' | 'setItem'>;

function pageStorage(): SettingsStorage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled for this page
  }
}

export class SettingsClient {
  private current: Settings = DEFAULT_SETTINGS;
  private readonly listeners = new Set<Listener>();
  /** Patches made before the stored settings arrived: applied again over them. */
  private early: SettingsPatch[] | null = [];
  /** setSettings calls not answered yet (an answer replaces the local copy only when it is the last). */
  private inFlight = 0;
  private readonly loading: Promise<Settings>;

  constructor(
    private readonly api: StudioApi | null,
    private readonly storage: SettingsStorage | null = api ? null : pageStorage(),
  ) {
    this.loading = this.load();
  }

  /** The settings as this page knows them now (the defaults until the stored ones are read). */
  get value(): Settings {
    return this.current;
  }

  /** The stored settings, once read (the defaults when there are none or they cannot be read). */
  ready(): Promise<Settings> {
    return this.loading;
  }

  /** Reads them again (main changes some itself: the last folder opened). */
  async refresh(): Promise<Settings> {
    await this.loading;
    if (this.api) this.current = await this.api.getSettings().then(readSettings, () => this.current);
    return this.current;
  }

  /**
   * Applies the patch now (listeners hear it) and keeps it. Rejects when the StudioApi could not
   * store it; the change still holds for this page.
   */
  async set(patch: SettingsPatch): Promise<Settings> {
    this.current = applySettingsPatch(this.current, patch);
    this.early?.push(patch);
    this.emit(patch);
    if (!this.api) {
      this.store();
      return this.current;
    }
    this.inFlight++;
    try {
      const saved = await this.api.setSettings(patch);
      if (this.inFlight === 1 && !this.early) this.current = readSettings(saved);
      return this.current;
    } finally {
      this.inFlight--;
    }
  }

  /** Called with the settings and the patch on every change (patch null: the stored settings arrived). */
  onChange(cb: Listener): () => void {
    this.listeners.add(cb);
    return () => this.listeners.delete(cb);
  }

  private async load(): Promise<Settings> {
    let stored: unknown;
    try {
      if (this.api) stored = await this.api.getSettings();
      else stored = JSON.parse(this.storage?.getItem(STORAGE_KEY) ?? 'null');
    } catch {
      stored = undefined; // no settings service, or a page copy that is not JSON: the defaults
    }
    const early = this.early ?? [];
    this.early = null;
    this.current = early.reduce(applySettingsPatch, readSettings(stored));
    this.emit(null);
    return this.current;
  }

  private store(): void {
    try {
      this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.current));
    } catch {
      /* storage unavailable: the settings last this visit */
    }
  }

  private emit(patch: SettingsPatch | null): void {
    for (const l of this.listeners) l(this.current, patch);
  }
}
