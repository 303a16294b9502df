/** What `vrma-studio info` and the studio's info panel show about a Motion (one summary for both). */
import type { MotionWarning } from '../warnings';
import type { Motion } from '../motion/types';
import { durationOf } from '../motion/types';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../vrm/humanBones';

export interface TrackCounts {
  /** Rotation tracks of humanoid bones. */
  readonly boneRotations: number;
  readonly hipsTranslation: number;
  /** Translation tracks of humanoid bones other than hips (three-vrm-animation ignores them). */
  readonly otherBoneTranslations: number;
  readonly expressions: number;
  readonly lookAt: number;
  /** Tracks of nodes that are neither bones, expressions nor lookAt. */
  readonly other: number;
}

export interface MotionSummary {
  readonly specVersion: string;
  readonly durationSeconds: number;
  /** From the median spacing of keys; null when no track has two keys. */
  readonly estimatedFps: number | null;
  readonly tracks: TrackCounts;
  readonly totalTracks: number;
  readonly totalKeys: number;
  /** Humanoid bones the file maps, in VRM order. */
  readonly bones: readonly HumanBoneName[];
  readonly animatedBones: readonly HumanBoneName[];
  readonly expressions: readonly { readonly name: string; readonly preset: boolean; readonly animated: boolean }[];
  readonly lookAt: 'none' | 'present' | 'animated';
  /** World-space rest height of the hips (metres when the file is in metres). */
  readonly restHipsHeight: number;
  readonly warnings: readonly MotionWarning[];
}

/** Rates a file's float32 key times are snapped to when the estimate is within 1% of one. */
const COMMON_FPS = [24, 25, 30, 50, 60, 120] as const;

/**
 * Where sparse keys (a VMD's own keys, an optimized motion) space the median out and their times do
 * not lie on its grid, the first of these rates whose frames they all lie on: MMD's 30 first.
 */
const GRID_FPS = [30, 60, 24, 25, 50, 120] as const;

/**
 * The one frame-rate estimate (CLI info, the studio's info panel and frame stepping): the median key
 * spacing over all tracks, snapped to a common rate within 1%, else rounded to 0.01. Null when no
 * track has two keys (a one-frame pose has no frame rate). Sparse keys: see GRID_FPS.
 */
export function estimateFps(motion: Motion): number | null {
  return estimateFpsOfTimes(motion.channels.map((c) => c.times));
}

/** The same estimate over bare key-time tracks (a glTF animation's samplers before conversion). */
export function estimateFpsOfTimes(tracks: readonly ArrayLike<number>[]): number | null {
  const gaps: number[] = [];
  for (const c of tracks.map((times) => ({ times }))) {
    // Sample at most ~200 gaps per track: enough for a median, cheap on hour-long motions.
    const step = Math.max(1, Math.floor(c.times.length / 200));
    for (let i = step; i < c.times.length; i += step) gaps.push((c.times[i] - c.times[i - step]) / step);
  }
  if (!gaps.length) return null;
  gaps.sort((a, b) => a - b);
  const median = gaps[gaps.length >> 1];
  if (!(median > 0)) return null;
  const fps = 1 / median;
  for (const common of COMMON_FPS) if (Math.abs(fps - common) < common * 0.01) return common;
  const rounded = Math.round(fps * 100) / 100;
  if (onFrames(tracks, rounded)) return rounded;
  return GRID_FPS.find((rate) => rate > rounded && onFrames(tracks, rate)) ?? rounded;
}

/**
 * Whether the keys but each track's last (a resampled end may fall between frames) are on frames at
 * `fps`, within float32 rounding of the time; up to 1 in 20 may not (a converter's key inside a frame
 * where a curve is too steep for whole frames, sparseKeys.ts).
 */
function onFrames(tracks: readonly ArrayLike<number>[], fps: number): boolean {
  let count = 0;
  let off = 0;
  for (const times of tracks) {
    for (let i = 0; i + 1 < times.length; i++) {
      const f = times[i] * fps;
      count++;
      if (Math.abs(f - Math.round(f)) > 1e-3 + Math.abs(f) * 2 ** -22) off++;
    }
  }
  return off * 20 <= count;
}
export function summarizeMotion(motion: Motion): MotionSummary {
  const expressionNodes = new Map(motion.expressions.map((e) => [e.node, e]));
  const tracks = { boneRotations: 0, hipsTranslation: 0, otherBoneTranslations: 0, expressions: 0, lookAt: 0, other: 0 };
  const animatedBones = new Set<HumanBoneName>();
  const animatedExpressions = new Set<number>();
  let totalKeys = 0;
  for (const c of motion.channels) {
    totalKeys += c.times.length;
    const bone = motion.humanoid.nodeToBone.get(c.node);
    if (bone) {
      animatedBones.add(bone);
      if (c.path === 'rotation') tracks.boneRotations++;
      else if (bone === 'hips') tracks.hipsTranslation++;
      else tracks.otherBoneTranslations++;
    } else if (expressionNodes.has(c.node)) {
      tracks.expressions++;
      animatedExpressions.add(c.node);
    } else if (c.node === motion.lookAtNode) tracks.lookAt++;
    else tracks.other++;
  }
  const mapped = motion.humanoid.boneToNode;
  return {
    specVersion: motion.specVersion,
    durationSeconds: durationOf(motion),
    estimatedFps: estimateFps(motion),
    tracks,
    totalTracks: motion.channels.length,
    totalKeys,
    bones: HUMAN_BONE_NAMES.filter((b) => mapped[b] !== undefined),
    animatedBones: HUMAN_BONE_NAMES.filter((b) => animatedBones.has(b)),
    expressions: motion.expressions.map((e) => ({ name: e.name, preset: e.preset, animated: animatedExpressions.has(e.node) })),
    lookAt: motion.lookAtNode === undefined ? 'none' : tracks.lookAt ? 'animated' : 'present',
    restHipsHeight: motion.rest.hipsHeight,
    warnings: motion.warnings,
  };
}
