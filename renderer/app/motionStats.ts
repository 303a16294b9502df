/** Figures the info panel and the frame stepping need, computed from a Motion. */
import type { Motion } from '../../shared/motion/types';
import { durationOf } from '../../shared/motion/types';

/** Frame rate estimated from the densest channel's median key interval (30 when nothing moves). */
export function estimateFps(motion: Motion): number {
  let best: Float32Array | null = null;
  for (const c of motion.channels) if (!best || c.times.length > best.length) best = c.times;
  if (!best || best.length < 2) return 30;
  const n = Math.min(best.length - 1, 999);
  const gaps = new Float64Array(n);
  for (let i = 0; i < n; i++) gaps[i] = best[i + 1] - best[i];
  gaps.sort();
  const median = gaps[n >> 1];
  if (!(median > 0)) return 30;
  const fps = 1 / median;
  // Snap to a common rate when close (files store float32 times).
  for (const common of [24, 25, 30, 50, 60, 120]) if (Math.abs(fps - common) < common * 0.01) return common;
  return Math.round(fps * 100) / 100;
}

export interface MotionSummary {
  readonly duration: number;
  readonly fps: number;
  readonly keys: number;
  readonly bones: number;
  readonly expressions: readonly string[];
  readonly lookAt: boolean;
  readonly warnings: readonly string[];
  readonly specVersion: string;
}

export function summarize(motion: Motion): MotionSummary {
  let keys = 0;
  const bones = new Set<number>();
  for (const c of motion.channels) {
    keys += c.times.length;
    if (motion.humanoid.nodeToBone.has(c.node)) bones.add(c.node);
  }
  const animatedExpressions = new Set(motion.channels.map((c) => c.node));
  return {
    duration: durationOf(motion),
    fps: estimateFps(motion),
    keys,
    bones: bones.size,
    expressions: motion.expressions.filter((e) => animatedExpressions.has(e.node)).map((e) => e.name),
    lookAt: motion.lookAtNode !== undefined && motion.channels.some((c) => c.node === motion.lookAtNode),
    warnings: motion.warnings,
    specVersion: motion.specVersion,
  };
}
