/**
 * The studio's settings as the contract carries them: one valibot schema (SettingsSchema) gives their
 * shape (Settings is its inferred type), their defaults (what an empty object reads to) and their
 * ranges (every stored value is clamped or replaced by its default there), so settings.json may be old,
 * partial or hand-edited. Kept by main/services/settingsStore.ts; changed through setSettings with a
 * SettingsPatch checked by schema.ts and merged by applySettingsPatch. studioApi.ts re-exports all of it.
 */
import * as v from 'valibot';
import { BedroomSettingsSchema } from './bedroomSettings';
import type { Infer, SameType } from './infer';
import type { SettingsPatchSchema } from './schema';
import { LANGUAGE_SETTINGS } from './schema';
import { EXPORT_FORMATS } from '../export/exportFormats';
import { choice, clampedNumber, flag, isPlainObject, section } from './settingsFields';

export type { BedroomSettings } from './bedroomSettings';

export const SETTINGS_SCHEMA_VERSION = 1;

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

/** The range of the onion skin's offset (seconds), and the field's step. */
export const ONION_SKIN_SECONDS = { min: 0.02, max: 2, default: 0.2, step: 0.05 } as const;
/** Settings written before the offset was in seconds held frames; they are read as frames at 30 fps. */
export const LEGACY_ONION_FPS = 30;
/** The pose-edit falloff radius (seconds): the transport bar's field and the stored value share it. */
export const FALLOFF_SECONDS = { min: 0, max: 10, default: 0.4, step: 0.05 } as const;

const OnionSecondsSchema = clampedNumber(ONION_SKIN_SECONDS.default, ONION_SKIN_SECONDS.min, ONION_SKIN_SECONDS.max, (s) => Math.round(s * 100) / 100);
/** A panel size in CSS px, rounded and inside its row of PANEL_SIZES; null: the layout's default. */
const panelSize = (panel: PanelName) =>
  v.fallback(v.nullable(v.pipe(v.number(), v.finite(), v.transform((x) => Math.round(Math.min(PANEL_SIZES[panel].max, Math.max(PANEL_SIZES[panel].min, x)))))), null);
const finite = v.pipe(v.number(), v.finite());

export const SettingsSchema = section({
  /** Always today's version: older files are read field by field to it. */
  schemaVersion: v.pipe(v.unknown(), v.transform((): number => SETTINGS_SCHEMA_VERSION)),
  /** The window's last bounds; null (the default placement) unless all four are numbers and it is at least 200x150. */
  windowBounds: v.fallback(
    v.nullable(
      v.pipe(
        v.object({ x: finite, y: finite, width: finite, height: finite, maximized: flag(false) }),
        v.check((b) => b.width >= 200 && b.height >= 150),
      ),
    ),
    null,
  ),
  /** Pose-edit falloff radius in seconds. */
  falloffRadius: clampedNumber(FALLOFF_SECONDS.default, FALLOFF_SECONDS.min, FALLOFF_SECONDS.max),
  /**
   * Auto-key (renderer/app/autoKey.ts), Blender's record button: on, a pose edit keys at the playhead;
   * off, it is a preview kept until the frame changes, keyed with K. On by default (what a pose edit
   * always did before the toggle existed).
   */
  autoKey: flag(true),
  bedroom: BedroomSettingsSchema,
  lastFolder: v.fallback(v.nullable(v.pipe(v.string(), v.minLength(1))), null),
  /** UI language: 'system' follows the OS / browser (shared/i18n detectLocale), else the user's choice. */
  language: choice(LANGUAGE_SETTINGS, 'system'),
  /** Ghost poses of the avatar a moment before and after the playhead (renderer/viewport/onionSkin.ts). */
  onionSkin: v.pipe(
    v.unknown(),
    // A settings file from before seconds holds frames: read at 30 fps, the rate it was mostly seen at.
    v.transform((o) => (isPlainObject(o) && o.seconds === undefined && typeof o.frames === 'number' ? { ...o, seconds: o.frames / LEGACY_ONION_FPS } : o)),
    section({
      enabled: flag(false),
      /**
       * The ghosts show the pose this many seconds before and after the playhead. Seconds, not frames:
       * the same setting shows the same spread of a movement at 30 fps and at 120 fps (issue 27).
       */
      seconds: OnionSecondsSchema,
    }),
  ),
  /** The Export menu's last format (renderer/app/exportFormat.ts): what "Export to" writes. */
  exportFormat: choice(EXPORT_FORMATS, 'vmd'),
  /**
   * Export's "Smaller file" (renderer/app/exportEncoding.ts): 16-bit rotations. Here, not in the page's
   * storage: the browser host's origin (its port) changes every run.
   */
  exportSmallerFile: flag(false),
  /**
   * What a capture (a video file or the webcam, renderer/capture) reads besides the body: the fingers
   * (@mediapipe/hands) and blinks and vowels (@mediapipe/face_mesh). Off by default: each roughly
   * doubles the time a frame takes on a machine without a GPU.
   */
  capture: section({ hands: flag(false), face: flag(false) }),
  /** The splitters' panel sizes in CSS px; null: the layout's default for the window size. */
  panels: section({ left: panelSize('left'), right: panelSize('right'), dopeSheet: panelSize('dopeSheet') }),
});

export type Settings = Infer<typeof SettingsSchema>;
export type WindowBounds = NonNullable<Settings['windowBounds']>;
export type OnionSkinSettings = Settings['onionSkin'];
export type PanelSizes = Settings['panels'];
export type LanguageSetting = Settings['language'];

/** What setSettings may change (schema.ts: refused with a message when wrong, then clamped here when stored). */
export type SettingsPatch = Infer<typeof SettingsPatchSchema>;

// Compile-time: a patch names exactly the settings' fields (but the version), each a part of that field.
type PatchOf<T> = { readonly [K in keyof T]?: T[K] extends object | null ? (null extends T[K] ? null : never) | Partial<NonNullable<T[K]>> : T[K] };
const patchMatches: SameType<keyof SettingsPatch, Exclude<keyof Settings, 'schemaVersion'>> = true;
const patchFits: SettingsPatch extends PatchOf<Omit<Settings, 'schemaVersion'>> ? true : false = true;
void patchMatches;
void patchFits;

export { LANGUAGE_SETTINGS } from './schema';

/** Any stored value (older schema, hand-edited, partial, not even an object) to complete, valid Settings. */
export const readSettings = (stored: unknown): Settings => v.parse(SettingsSchema, stored);

export const DEFAULT_SETTINGS: Settings = readSettings({});

/** An onion skin offset as stored and shown: to the hundredth of a second, inside the range (the default when not a number). */
export const clampOnionSeconds = (s: number): number => v.parse(OnionSecondsSchema, s);

/**
 * The settings after a patch: a field the patch names is replaced, except that an object of settings
 * (bedroom, onionSkin, capture, panels) is merged one level, field by field, as the patch types allow; the
 * result is read through the schema, so it is clamped like a stored file.
 */
export function applySettingsPatch(current: Settings, patch: SettingsPatch): Settings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) continue;
    const was = next[key];
    next[key] = isPlainObject(value) && isPlainObject(was) ? { ...was, ...value } : value;
  }
  return readSettings(next);
}
