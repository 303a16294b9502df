/**
 * User settings in USERDATA/settings.json with defaults and a schema version. Unknown or invalid
 * fields fall back to their defaults one by one; a file that is not JSON at all is set aside
 * (settings.json.corrupt-TIME) and the app continues with defaults.
 */
import { join } from 'node:path';
import {
  DEFAULT_SETTINGS,
  LANGUAGE_SETTINGS,
  LEGACY_ONION_FPS,
  clampOnionSeconds,
  PANEL_SIZES,
  type PanelName,
  type PanelSizes,
  type OnionSkinSettings,
  SETTINGS_SCHEMA_VERSION,
  type LanguageSetting,
  type Settings,
  type SettingsPatch,
  type WindowBounds,
} from '../../shared/contract/studioApi';
import { sanitizeBedroomSettings } from '../../shared/contract/bedroomSettings';
import { isExportFormat } from '../../shared/export/exportFormats';
import { readJsonFile, writeJsonFile } from './jsonStore';

const finite = (v: unknown, fallback: number, min = -Infinity, max = Infinity): number =>
  typeof v === 'number' && Number.isFinite(v) ? Math.min(max, Math.max(min, v)) : fallback;

function sanitizeBounds(v: unknown): WindowBounds | null {
  const b = v as Partial<WindowBounds> | null;
  if (!b || typeof b !== 'object') return null;
  if (![b.x, b.y, b.width, b.height].every((n) => typeof n === 'number' && Number.isFinite(n))) return null;
  if (b.width! < 200 || b.height! < 150) return null;
  return { x: b.x!, y: b.y!, width: b.width!, height: b.height!, maximized: b.maximized === true };
}

function sanitizeOnionSkin(v: unknown): OnionSkinSettings {
  const o = (v && typeof v === 'object' ? v : {}) as Partial<OnionSkinSettings> & { frames?: unknown };
  // A settings file from before seconds holds frames: read at 30 fps, the rate it was mostly seen at.
  const given = o.seconds ?? (typeof o.frames === 'number' ? o.frames / LEGACY_ONION_FPS : undefined);
  return {
    enabled: o.enabled === true,
    seconds: clampOnionSeconds(typeof given === 'number' ? given : NaN),
  };
}

function sanitizePanels(v: unknown): PanelSizes {
  const o = (v && typeof v === 'object' ? v : {}) as Record<string, unknown>;
  const size = (k: PanelName) => (typeof o[k] === 'number' && Number.isFinite(o[k]) ? Math.round(finite(o[k], 0, PANEL_SIZES[k].min, PANEL_SIZES[k].max)) : null);
  return { left: size('left'), right: size('right'), dopeSheet: size('dopeSheet') };
}

/** Any stored value (older schema, hand-edited, partial) to a complete, valid Settings. */
export function sanitizeSettings(v: unknown): Settings {
  const s = (v && typeof v === 'object' ? v : {}) as Partial<Settings>;
  return {
    schemaVersion: SETTINGS_SCHEMA_VERSION,
    windowBounds: sanitizeBounds(s.windowBounds),
    falloffRadius: finite(s.falloffRadius, DEFAULT_SETTINGS.falloffRadius, 0, 10),
    bedroom: sanitizeBedroomSettings(s.bedroom),
    lastFolder: typeof s.lastFolder === 'string' && s.lastFolder.length > 0 ? s.lastFolder : null,
    language: LANGUAGE_SETTINGS.includes(s.language as LanguageSetting) ? (s.language as LanguageSetting) : DEFAULT_SETTINGS.language,
    onionSkin: sanitizeOnionSkin(s.onionSkin),
    exportFormat: isExportFormat(s.exportFormat) ? s.exportFormat : DEFAULT_SETTINGS.exportFormat,
    panels: sanitizePanels(s.panels),
  };
}

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
      const next = sanitizeSettings({
        ...cur,
        ...patch,
        bedroom: { ...cur.bedroom, ...(patch.bedroom ?? {}) },
        onionSkin: { ...cur.onionSkin, ...(patch.onionSkin ?? {}) },
        panels: { ...cur.panels, ...(patch.panels ?? {}) },
      });
      await writeJsonFile(this.file, next);
      this.current = next;
      return next;
    });
  }

  private async load(): Promise<Settings> {
    if (this.current) return this.current;
    const r = await readJsonFile(this.file);
    if (r.status === 'corrupt') this.setAsideTo = r.setAsideTo;
    this.current = sanitizeSettings(r.status === 'ok' ? r.value : undefined);
    return this.current;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }
}
