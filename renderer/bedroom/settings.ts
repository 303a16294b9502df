/**
 * What the bedroom remembers between sessions. The studio stores it through BedroomContext; anything
 * read back is sanitized here, so an old or hand-edited settings file can never break the scene.
 */
export type LyingPose = 'back' | 'side';

export interface PlacementOffsets {
  /** Metres, in the room's axes, added to the automatic placement. */
  readonly x: number;
  readonly y: number;
  readonly z: number;
  /** Degrees about the vertical, added to the automatic heading. */
  readonly yaw: number;
}

export interface BedroomSettings {
  readonly pose: LyingPose;
  readonly autoTurn: boolean;
  /** Seconds between automatic turn-overs while fully asleep (20..600). */
  readonly autoSec: number;
  readonly offsets: PlacementOffsets;
  /** Name of the user's sleep pose file (read again through readUserFile on the next visit). */
  readonly poseFile?: string;
  /** The lying pose whose slot the file fills (the current pose when it was chosen). */
  readonly poseFileSlot?: LyingPose;
}

export const AUTO_SEC_MIN = 20;
export const AUTO_SEC_MAX = 600;
export const OFFSET_LIMIT_M = 0.5;
export const YAW_LIMIT_DEG = 180;

export const ZERO_OFFSETS: PlacementOffsets = { x: 0, y: 0, z: 0, yaw: 0 };

export const DEFAULT_BEDROOM_SETTINGS: BedroomSettings = {
  pose: 'back',
  autoTurn: true,
  autoSec: 120,
  offsets: ZERO_OFFSETS,
};

function clampNumber(v: unknown, lo: number, hi: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) ? Math.min(hi, Math.max(lo, v)) : fallback;
}

/** Any stored value (possibly from an older version, or garbage) to valid settings. */
export function sanitizeBedroomSettings(raw: unknown): BedroomSettings {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const o = (r.offsets && typeof r.offsets === 'object' ? r.offsets : {}) as Record<string, unknown>;
  const d = DEFAULT_BEDROOM_SETTINGS;
  return {
    pose: r.pose === 'side' || r.pose === 'back' ? r.pose : d.pose,
    autoTurn: typeof r.autoTurn === 'boolean' ? r.autoTurn : d.autoTurn,
    autoSec: Math.round(clampNumber(r.autoSec, AUTO_SEC_MIN, AUTO_SEC_MAX, d.autoSec)),
    offsets: {
      x: clampNumber(o.x, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
      y: clampNumber(o.y, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
      z: clampNumber(o.z, -OFFSET_LIMIT_M, OFFSET_LIMIT_M, 0),
      yaw: clampNumber(o.yaw, -YAW_LIMIT_DEG, YAW_LIMIT_DEG, 0),
    },
    ...(typeof r.poseFile === 'string' && r.poseFile.length > 0 && r.poseFile.length < 4096 ? { poseFile: r.poseFile } : {}),
    ...(r.poseFileSlot === 'side' || r.poseFileSlot === 'back' ? { poseFileSlot: r.poseFileSlot } : {}),
  };
}
