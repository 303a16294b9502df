/**
 * The studio's settings as the contract carries them: their shape, defaults and ranges (settings.json,
 * kept by main/services/settingsStore.ts; changed through setSettings with a SettingsPatch checked by
 * schema.ts). studioApi.ts re-exports all of it.
 */
import { DEFAULT_BEDROOM_SETTINGS, type BedroomSettings } from './bedroomSettings';
import type { Infer, SettingsPatchSchema, WindowBoundsSchema } from './schema';
import type { LANGUAGE_SETTINGS } from './schema';
import type { ExportFormat } from '../export/exportFormats';

export type WindowBounds = Infer<typeof WindowBoundsSchema>;

export type { BedroomSettings } from './bedroomSettings';

export const SETTINGS_SCHEMA_VERSION = 1;

export interface Settings {
  readonly schemaVersion: number;
  readonly windowBounds: WindowBounds | null;
  /** Pose-edit falloff radius in seconds. */
  readonly falloffRadius: number;
  readonly bedroom: BedroomSettings;
  readonly lastFolder: string | null;
  /** UI language: 'system' follows the OS / browser (shared/i18n detectLocale), else the user's choice. */
  readonly language: LanguageSetting;
  /** Ghost poses of the avatar N frames before and after the playhead (renderer/viewport/onionSkin.ts). */
  readonly onionSkin: OnionSkinSettings;
  /** The Export menu's last format (renderer/app/exportFormat.ts): what "Export to" writes. */
  readonly exportFormat: ExportFormat;
  /** The splitters' panel sizes in CSS px; null: the layout's default for the window size. */
  readonly panels: PanelSizes;
}

/**
 * The studio's splitters (renderer/shell/splitters.ts), one row each: the library column, the edit
 * column and the dope sheet (and curve view) height, in CSS px. The store clamps to these.
 */
export const PANEL_SIZES = {
  left: { min: 150, max: 520 },
  right: { min: 200, max: 560 },
  dopeSheet: { min: 60, max: 700 },
} as const;
export type PanelName = keyof typeof PANEL_SIZES;
export type PanelSizes = { readonly [K in PanelName]: number | null };

export interface OnionSkinSettings {
  readonly enabled: boolean;
  /**
   * The ghosts show the pose this many seconds before and after the playhead. Seconds, not frames: the
   * same setting shows the same spread of a movement at 30 fps and at 120 fps (issue 27).
   */
  readonly seconds: number;
}

/** The range of the onion skin's offset (seconds), and the field's step. */
export const ONION_SKIN_SECONDS = { min: 0.02, max: 2, default: 0.2, step: 0.05 } as const;
/** Settings written before the offset was in seconds held frames; they are read as frames at 30 fps. */
export const LEGACY_ONION_FPS = 30;

/** An offset as stored and shown: to the hundredth of a second, inside the range (the default when not a number). */
export function clampOnionSeconds(s: number): number {
  if (!Number.isFinite(s)) return ONION_SKIN_SECONDS.default;
  return Math.min(ONION_SKIN_SECONDS.max, Math.max(ONION_SKIN_SECONDS.min, Math.round(s * 100) / 100));
}

export { LANGUAGE_SETTINGS } from './schema';
export type LanguageSetting = (typeof LANGUAGE_SETTINGS)[number];

/** What setSettings may change (the bedroom part is checked against BedroomSettings at compile time in schema.ts). */
export type SettingsPatch = Infer<typeof SettingsPatchSchema>;

export const DEFAULT_SETTINGS: Settings = {
  schemaVersion: SETTINGS_SCHEMA_VERSION,
  windowBounds: null,
  falloffRadius: 0.4,
  bedroom: DEFAULT_BEDROOM_SETTINGS,
  lastFolder: null,
  language: 'system',
  onionSkin: { enabled: false, seconds: ONION_SKIN_SECONDS.default },
  exportFormat: 'vmd',
  panels: { left: null, right: null, dopeSheet: null },
};
