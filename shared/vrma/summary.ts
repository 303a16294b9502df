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

/**
 * The same estimate over bare key-time tracks (a glTF animation's samplers before conversion). Tracks
 * that share one time array (a capture's 61 tracks, the tracks an edit gave the same new keys) are
 * read once and weighted by how many share it: the weighted median and the weighted off-frame count
 * are those of the list with every track in it, read 61 times less (it ran twice per edit).
 */
export function estimateFpsOfTimes(tracks: readonly ArrayLike<number>[]): number | null {
  const shared = new Map<ArrayLike<number>, number>();
  for (const times of tracks) shared.set(times, (shared.get(times) ?? 0) + 1);
  const gaps: { gap: number; weight: number }[] = [];
  let total = 0;
  for (const [times, weight] of shared) {
    // Sample at most ~200 gaps per track: enough for a median, cheap on hour-long motions.
    const step = Math.max(1, Math.floor(times.length / 200));
    for (let i = step; i < times.length; i += step) gaps.push({ gap: (times[i] - times[i - step]) / step, weight });
    if (times.length > step) total += weight * Math.ceil((times.length - step) / step);
  }
  if (!gaps.length) return null;
  gaps.sort((a, b) => a.gap - b.gap);
  // The gap at index total >> 1 of the list with each shared array's gaps repeated `weight` times.
  let median = gaps[gaps.length - 1].gap;
  for (let i = 0, seen = 0; i < gaps.length; i++) {
    seen += gaps[i].weight;
    if (seen > total >> 1) {
      median = gaps[i].gap;
      break;
    }
  }
  if (!(median > 0)) return null;
  const fps = 1 / median;
  for (const common of COMMON_FPS) if (Math.abs(fps - common) < common * 0.01) return common;
  const rounded = Math.round(fps * 100) / 100;
  if (onFrames(shared, rounded)) return rounded;
  return GRID_FPS.find((rate) => rate > rounded && onFrames(shared, rate)) ?? rounded;
}

/**
 * Whether the keys but each track's last (a resampled end may fall between frames) are on frames at
 * `fps`, within float32 rounding of the time; up to 1 in 20 may not (a converter's key inside a frame
 * where a curve is too steep for whole frames, sparseKeys.ts). Each time array counts `weight` times.
 */
function onFrames(tracks: ReadonlyMap<ArrayLike<number>, number>, fps: number): boolean {
  let count = 0;
  let off = 0;
  for (const [times, weight] of tracks) {
    let offHere = 0;
    for (let i = 0; i + 1 < times.length; i++) {
      const f = times[i] * fps;
      if (Math.abs(f - Math.round(f)) > 1e-3 + Math.abs(f) * 2 ** -22) offHere++;
    }
    count += weight * Math.max(0, times.length - 1);
    off += weight * offHere;
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
