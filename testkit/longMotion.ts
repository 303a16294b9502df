/**
 * A long motion for benchmarks: 10 minutes at 60 fps (36,001 keys per track) on the standard
 * skeleton, 55 bone rotation tracks (every VRM bone), hips translation and 5 expression tracks, all
 * smooth and deterministic. Every track shares one time array, as real exporters write them.
 */
import type { Motion } from '../shared/motion/types';
import { buildMotion, type KeyTrack } from '../shared/vrma/buildMotion';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../shared/vrm/humanBones';
import { STANDARD_OFFSETS } from '../shared/vrm/standardSkeleton';

export const LONG_MOTION = { seconds: 600, fps: 60, rotationTracks: 55, expressionTracks: 5 } as const;

export function makeLongMotion(seconds: number = LONG_MOTION.seconds, fps: number = LONG_MOTION.fps): Motion {
  const keys = Math.round(seconds * fps) + 1;
  const times = new Float32Array(keys);
  for (let i = 0; i < keys; i++) times[i] = i / fps;
  const bones = HUMAN_BONE_NAMES.slice(0, LONG_MOTION.rotationTracks) as HumanBoneName[];
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  bones.forEach((bone, b) => {
    const values = new Float32Array(keys * 4);
    // Each bone swings about its own axis at its own rate, up to ±30°.
    const ax = Math.sin(b * 1.3), ay = Math.cos(b * 0.7), az = Math.sin(b * 2.1 + 1);
    const n = Math.hypot(ax, ay, az);
    const freq = 0.2 + (b % 7) * 0.13;
    for (let i = 0; i < keys; i++) {
      const angle = (Math.PI / 6) * Math.sin(2 * Math.PI * freq * times[i] + b);
      const s = Math.sin(angle / 2) / n;
      values.set([ax * s, ay * s, az * s, Math.cos(angle / 2)], i * 4);
    }
    rotations[bone] = { times, values };
  });
  const hips = new Float32Array(keys * 3);
  const [hx, hy, hz] = STANDARD_OFFSETS.hips;
  for (let i = 0; i < keys; i++) {
    const t = times[i];
    hips.set([hx + 0.3 * Math.sin(t * 0.5), hy + 0.02 * Math.sin(t * 2 * Math.PI), hz + 0.1 * t], i * 3);
  }
  const expressions: Record<string, KeyTrack> = {};
  for (const [e, name] of ['happy', 'blink', 'aa', 'oh', 'surprised'].entries()) {
    const w = new Float32Array(keys);
    for (let i = 0; i < keys; i++) w[i] = 0.5 + 0.5 * Math.sin(times[i] * (0.3 + e * 0.4));
    expressions[name] = { times, values: w };
  }
  return buildMotion({ rotations, hipsTranslation: { times, values: hips }, expressions, bones, generator: 'VRMA Studio benchmark' });
}
