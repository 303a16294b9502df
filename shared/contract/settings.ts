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
  /** N: the ghosts show the pose at t - N/fps and t + N/fps (frames at the motion's rate). */
  readonly frames: number;
}

/** The range of the onion skin's N (frames). */
export const ONION_SKIN_FRAMES = { min: 1, max: 60, default: 5 } as const;

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
  onionSkin: { enabled: false, frames: ONION_SKIN_FRAMES.default },
  exportFormat: 'vmd',
  panels: { left: null, right: null, dopeSheet: null },
};
