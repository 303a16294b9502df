/**
 * The bedroom's settings: the one type (kept in the studio's settings file through StudioApi) and
 * the one sanitizer, used by the settings store in main/ and by the bedroom when it reads them back,
 * so an old, partial or hand-edited file can never break the scene.
 */

/** The pose being lain in: on the back, on the right side (the side pose), on the left (its mirror). */
export type LyingPose = 'back' | 'right' | 'left';
/** The two poses a user's file can fill; the left side is always the mirror of the side pose. */
export type PoseSlot = 'back' | 'side';
/** Turn-over cycle: back ↔ right side, or back → right → back → left. */
export type TurnSides = 'right' | 'both';

/** The user's correction of the automatic placement, in the bed's own directions. */
export interface PlacementOffsets {
  /** Metres toward the head of the bed (negative: toward the feet). */
  readonly towardHead: number;
  /** Metres toward the wall side of the bed (negative: toward the open edge). */
  readonly towardWall: number;
  /** Metres up (negative: down). */
  readonly up: number;
  /** Degrees about the vertical (positive: counter-clockwise seen from above). */
  readonly turn: number;
}

export interface BedroomSettings {
  readonly pose: LyingPose;
  readonly sides: TurnSides;
  readonly autoTurn: boolean;
  /** Seconds between automatic turn-overs while fully asleep (AUTO_SEC_MIN..AUTO_SEC_MAX). */
  readonly autoSec: number;
  /** Placement offsets per avatar (key: the avatar's name, see placementKey). */
  readonly placement: { readonly [avatar: string]: PlacementOffsets };
  /** The user's sleep pose files (paths read again through StudioApi.readFile), by the pose they fill. */
  readonly poseFiles: { readonly back?: string; readonly side?: string };
  readonly sound: { readonly muted: boolean; readonly volume: number };
}

export const AUTO_SEC_MIN = 20;
export const AUTO_SEC_MAX = 600;
export const AUTO_SEC_STEP = 10;
export const OFFSET_LIMIT_M = 0.5;
export const TURN_LIMIT_DEG = 180;
/** Avatars whose placement is remembered (the oldest entries go first). */
export const MAX_PLACEMENTS = 100;
export const MAX_KEY = 255;
export const MAX_POSE_PATH = 4096;

export const ZERO_OFFSETS: PlacementOffsets = { towardHead: 0, towardWall: 0, up: 0, turn: 0 };

export const DEFAULT_BEDROOM_SETTINGS: BedroomSettings = {
  pose: 'back',
  sides: 'right',
  autoTurn: true,
  autoSec: 120,
  placement: {},
  poseFiles: {},
  sound: { muted: false, volume: 0.5 },
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function clamp(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
}

export function sanitizeOffsets(raw: unknown): PlacementOffsets {
  const o = isObject(raw) ? raw : {};
  return {
    towardHead: clamp(o.towardHead, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
    towardWall: clamp(o.towardWall, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
    up: clamp(o.up, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
    turn: clamp(o.turn, -TURN_LIMIT_DEG, TURN_LIMIT_DEG, 0),
  };
}

const posePath = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_POSE_PATH && !v.includes('\0');

/** Any stored value (an older version, garbage, a partial patch merged on the defaults) to valid settings. */
export function sanitizeBedroomSettings(raw: unknown): BedroomSettings {
  const r = isObject(raw) ? raw : {};
  const d = DEFAULT_BEDROOM_SETTINGS;
  // Version 1 stored 'side' for the (right) side pose.
  const pose = r.pose === 'side' ? 'right' : r.pose === 'back' || r.pose === 'right' || r.pose === 'left' ? r.pose : d.pose;
  const placement: Record<string, PlacementOffsets> = {};
  if (isObject(r.placement)) {
    const keys = Object.keys(r.placement).filter((k) => k.length > 0 && k.length <= MAX_KEY);
    for (const k of keys.slice(-MAX_PLACEMENTS)) placement[k] = sanitizeOffsets(r.placement[k]);
  }
  const files = isObject(r.poseFiles) ? r.poseFiles : {};
  const sound = isObject(r.sound) ? r.sound : {};
  const sides = r.sides === 'both' || r.sides === 'right' ? r.sides : d.sides;
  return {
    pose: sides === 'right' && pose === 'left' ? 'right' : pose,
    sides,
    autoTurn: typeof r.autoTurn === 'boolean' ? r.autoTurn : d.autoTurn,
    autoSec: Math.round(clamp(r.autoSec, AUTO_SEC_MIN, AUTO_SEC_MAX, d.autoSec)),
    placement,
    poseFiles: { ...(posePath(files.back) ? { back: files.back } : {}), ...(posePath(files.side) ? { side: files.side } : {}) },
    sound: { muted: sound.muted === true, volume: clamp(sound.volume, 0, 1, d.sound.volume) },
  };
}

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
