/**
 * User settings in USERDATA/settings.json with defaults and a schema version, read and patched through
 * the contract's one schema (shared/contract/settings.ts): unknown or invalid fields fall back to their
 * defaults one by one, numbers are clamped to their ranges; a file that is not JSON at all is set aside
 * (settings.json.corrupt-TIME) and the app continues with defaults.
 */
import { join } from 'node:path';
import { applySettingsPatch, readSettings, type Settings, type SettingsPatch } from '../../shared/contract/studioApi';
import { readJsonFile, writeJsonFile } from './jsonStore';

/** Any stored value (older schema, hand-edited, partial) to a complete, valid Settings: the contract's schema reads it. */
export const sanitizeSettings = readSettings;

export class SettingsStore {
  readonly file: string;
  private current: Settings | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** Where a corrupt settings file was moved, if that happened on load. */
  setAsideTo: string | null = null;

  constructor(userDataDir: string) {
    this.file = join(userDataDir, 'settings.json');
  }

  get(): Promise<Settings> {
    return this.serial(() => this.load());
  }

  set(patch: SettingsPatch): Promise<Settings> {
    return this.serial(async () => {
      const cur = await this.load();
      const next = applySettingsPatch(cur, patch);
      await writeJsonFile(this.file, next);
      this.current = next;
      return next;
    });
  }

  private async load(): Promise<Settings> {
    if (this.current) return this.current;
    const r = await readJsonFile(this.file);
    if (r.status === 'corrupt') this.setAsideTo = r.setAsideTo;
    this.current = readSettings(r.status === 'ok' ? r.value : undefined);
    return this.current;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
