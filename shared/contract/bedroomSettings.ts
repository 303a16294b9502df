/**
 * The bedroom's settings: the one schema (kept in the studio's settings file through StudioApi), whose
 * inferred type is BedroomSettings and whose reading is the one sanitizer, used by the settings store
 * in main/ and by the bedroom when it reads them back, so an old, partial or hand-edited file can never
 * break the scene.
 */
import * as v from 'valibot';
import type { Infer } from './infer';
import { choice, clampedNumber, flag, isPlainObject, section, withoutUndefined } from './settingsFields';

export const AUTO_SEC_MIN = 20;
export const AUTO_SEC_MAX = 600;
export const AUTO_SEC_STEP = 10;
export const OFFSET_LIMIT_M = 0.5;
export const TURN_LIMIT_DEG = 180;
/** Avatars whose placement is remembered (the oldest entries go first). */
export const MAX_PLACEMENTS = 100;
export const MAX_KEY = 255;
export const MAX_POSE_PATH = 4096;

/** The user's correction of the automatic placement, in the bed's own directions. */
const PlacementOffsetsSchema = section({
  /** Metres toward the head of the bed (negative: toward the feet). */
  towardHead: clampedNumber(0, -OFFSET_LIMIT_M, OFFSET_LIMIT_M),
  /** Metres toward the wall side of the bed (negative: toward the open edge). */
  towardWall: clampedNumber(0, -OFFSET_LIMIT_M, OFFSET_LIMIT_M),
  /** Metres up (negative: down). */
  up: clampedNumber(0, -OFFSET_LIMIT_M, OFFSET_LIMIT_M),
  /** Degrees about the vertical (positive: counter-clockwise seen from above). */
  turn: clampedNumber(0, -TURN_LIMIT_DEG, TURN_LIMIT_DEG),
});

const posePath = v.fallback(v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_POSE_PATH), v.check((p) => !p.includes('\0')))), undefined);

/**
 * The bedroom's settings as stored: every field read to a valid value (its range, or its default),
 * and the defaults are what an empty object reads to.
 */
export const BedroomSettingsSchema = v.pipe(
  section({
    /** The pose being lain in: on the back, on the right side (the side pose), on the left (its mirror). Version 1 stored 'side' for the right. */
    pose: choice(['back', 'right', 'left'], 'back', (p) => (p === 'side' ? 'right' : p)),
    /** Turn-over cycle: back <-> right side, or back -> right -> back -> left. */
    sides: choice(['right', 'both'], 'right'),
    autoTurn: flag(true),
    /** Seconds between automatic turn-overs while fully asleep (AUTO_SEC_MIN..AUTO_SEC_MAX). */
    autoSec: clampedNumber(120, AUTO_SEC_MIN, AUTO_SEC_MAX, Math.round),
    /** Placement offsets per avatar (key: the avatar's name, see placementKey), the newest MAX_PLACEMENTS. */
    placement: v.pipe(
      v.unknown(),
      v.transform((x) => Object.fromEntries(Object.entries(isPlainObject(x) ? x : {}).filter(([k]) => k.length > 0 && k.length <= MAX_KEY).slice(-MAX_PLACEMENTS))),
      v.record(v.string(), PlacementOffsetsSchema),
    ),
    /** The user's sleep pose files (paths read again through StudioApi.readFile), by the pose they fill. */
    poseFiles: v.pipe(section({ back: posePath, side: posePath }), v.transform(withoutUndefined)),
    sound: section({ muted: flag(false), volume: clampedNumber(0.5, 0, 1) }),
  }),
  // The left side is the mirror of the side pose, turned to only when both sides are on.
  v.transform((b) => (b.sides === 'right' && b.pose === 'left' ? { ...b, pose: 'right' as const } : b)),
);

export type BedroomSettings = Infer<typeof BedroomSettingsSchema>;
export type PlacementOffsets = Infer<typeof PlacementOffsetsSchema>;
/** The pose being lain in: on the back, on the right side (the side pose), on the left (its mirror). */
export type LyingPose = BedroomSettings['pose'];
/** The two poses a user's file can fill; the left side is always the mirror of the side pose. */
export type PoseSlot = keyof BedroomSettings['poseFiles'];
/** Turn-over cycle: back <-> right side, or back -> right -> back -> left. */
export type TurnSides = BedroomSettings['sides'];

export const ZERO_OFFSETS: PlacementOffsets = v.parse(PlacementOffsetsSchema, {});

export const DEFAULT_BEDROOM_SETTINGS: BedroomSettings = v.parse(BedroomSettingsSchema, {});

export const sanitizeOffsets = (raw: unknown): PlacementOffsets => v.parse(PlacementOffsetsSchema, raw);

/** Any stored value (an older version, garbage, a partial patch merged on the defaults) to valid settings. */
export const sanitizeBedroomSettings = (raw: unknown): BedroomSettings => v.parse(BedroomSettingsSchema, raw);

/** The settings key of an avatar's placement: its name (file name, or "mannequin"), cut to MAX_KEY. */
export function placementKey(avatarName: string): string {
  return (avatarName || 'mannequin').slice(0, MAX_KEY);
}

/** The settings with one avatar's offsets replaced (moved to the newest end, so the cap drops the oldest). */
export function withPlacement(s: BedroomSettings, avatar: string, offsets: PlacementOffsets): BedroomSettings {
  const key = placementKey(avatar);
  const rest = Object.entries(s.placement).filter(([k]) => k !== key);
  return { ...s, placement: Object.fromEntries([...rest.slice(-(MAX_PLACEMENTS - 1)), [key, offsets]]) };
}

export function placementOf(s: BedroomSettings, avatar: string): PlacementOffsets {
  return s.placement[placementKey(avatar)] ?? ZERO_OFFSETS;
}
