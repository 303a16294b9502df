/**
 * Bakes a pose function of time into a looping Motion on the standard skeleton: evenly spaced keys
 * from 0 to the duration, the last key equal to the first so the loop closes exactly.
 */
import type { Motion, Quat, Vec3 } from '../motion/types';
import { MotionError } from '../errors';
import type { HumanBoneName } from '../vrm/humanBones';
import { buildMotion, type KeyTrack } from '../vrma/buildMotion';

export interface FramePose {
  readonly rotations: Readonly<Partial<Record<HumanBoneName, Quat>>>;
  /** Hips world position (rest: STANDARD_OFFSETS.hips). */
  readonly hips: Vec3;
  readonly expressions?: Readonly<Record<string, number>>;
}

/** A baked loop's keys: rotations per bone, the hips' position and expression weights, all on one times array. */
export interface LoopTracks {
  readonly rotations: Readonly<Partial<Record<HumanBoneName, KeyTrack>>>;
  readonly hipsTranslation: KeyTrack;
  readonly expressions: Readonly<Record<string, KeyTrack>>;
  readonly generator: string;
}

export const MAX_LOOP_SECONDS = 600;

export function checkLoopOptions(duration: number, fps: number): void {
  if (!Number.isFinite(duration) || duration <= 0 || duration > MAX_LOOP_SECONDS) {
    throw new MotionError('BAD_PARAMETER', 'loopBaker.duration', { max: MAX_LOOP_SECONDS, value: String(duration) });
  }
  if (!Number.isFinite(fps) || fps < 1 || fps > 240) {
    throw new MotionError('BAD_PARAMETER', 'loopBaker.fps', { value: String(fps) });
  }
}

export function bakeLoop(duration: number, fps: number, poseAt: (t: number) => FramePose, generator: string): Motion {
  return buildMotion(bakeLoopTracks(duration, fps, poseAt, generator));
}

/**
 * The keys of a baked loop, as buildMotion takes them: every track on one times array. The pose
 * function is the cost (the walk cycle's 67 poses: 30 ms); the renderer's build bakes the walk's keys
 * ahead (loopTracksFile.ts) and the page only builds the Motion from them.
 */
export function bakeLoopTracks(duration: number, fps: number, poseAt: (t: number) => FramePose, generator: string): LoopTracks {
  checkLoopOptions(duration, fps);
  const n = Math.max(2, Math.round(duration * fps) + 1);
  const times = new Float32Array(n);
  for (let i = 0; i < n; i++) times[i] = (i * duration) / (n - 1);
  const frames: FramePose[] = [];
  for (let i = 0; i < n - 1; i++) frames.push(poseAt((i * duration) / (n - 1)));
  frames.push(frames[0]);

  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const bone of Object.keys(frames[0].rotations) as HumanBoneName[]) {
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      const q = frames[i].rotations[bone]!;
      // Keep consecutive keys on one hemisphere so LINEAR slerp never takes the long way round.
      const flip = i > 0 && q[0] * values[i * 4 - 4] + q[1] * values[i * 4 - 3] + q[2] * values[i * 4 - 2] + q[3] * values[i * 4 - 1] < 0 ? -1 : 1;
      for (let c = 0; c < 4; c++) values[i * 4 + c] = q[c] * flip;
    }
    rotations[bone] = { times, values };
  }
  const hipsValues = new Float32Array(n * 3);
  frames.forEach((f, i) => hipsValues.set(f.hips, i * 3));
  const expressions: Record<string, KeyTrack> = {};
  for (const name of Object.keys(frames[0].expressions ?? {})) {
    expressions[name] = { times, values: Float32Array.from(frames, (f) => f.expressions![name]) };
  }
  return { rotations, hipsTranslation: { times, values: hipsValues }, expressions, generator };
}
