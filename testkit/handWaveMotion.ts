/**
 * A motion with known finger poses for the hands' closed loop: the figure stands with both forearms
 * up beside its head and the palms turned to the camera (in front, +Z), and every finger opens and
 * curls (0 to `maxCurl` per joint, thumb half that) over `period` seconds, each finger a little after
 * the one before so the curls differ within a frame. Built on the normalized skeleton, where every
 * bone's rest frame is the world's and the T-pose has the arms along ±X, palms down.
 */
import type { Motion, Quat } from '../shared/motion/types';
import { buildMotion, type KeyTrack } from '../shared/vrma/buildMotion';
import { fromAxisAngle } from '../shared/math/quat';
import { DIGITS } from '../shared/capture/handLandmarks';
import type { HumanBoneName } from '../shared/vrm/humanBones';

const deg = Math.PI / 180;

export interface HandWave {
  readonly motion: Motion;
  /** The truth: each finger's curl (sum of its three joints' angles, radians) at time t. */
  curl(side: 'left' | 'right', digit: string, t: number): number;
}

export function handWaveMotion(o: { seconds: number; fps: number; period: number; maxCurl: number }): HandWave {
  const n = Math.round(o.seconds * o.fps) + 1;
  const times = Float32Array.from({ length: n }, (_, i) => i / o.fps);
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  const constant = (q: Quat): KeyTrack => ({ times: Float32Array.of(0), values: Float32Array.from(q) });
  // Upper arms a little below the shoulder, forearms straight up, hands twisted so the palms face +Z.
  rotations.leftUpperArm = constant(fromAxisAngle([0, 0, 1], -20 * deg));
  rotations.rightUpperArm = constant(fromAxisAngle([0, 0, 1], 20 * deg));
  rotations.leftLowerArm = constant(fromAxisAngle([0, 0, 1], 110 * deg));
  rotations.rightLowerArm = constant(fromAxisAngle([0, 0, 1], -110 * deg));
  rotations.leftHand = constant(fromAxisAngle([1, 0, 0], -90 * deg));
  rotations.rightHand = constant(fromAxisAngle([1, 0, 0], -90 * deg));
  const jointAngle = (digit: number, t: number) => {
    const phase = (2 * Math.PI * t) / o.period - digit * 0.5;
    return (digit === 0 ? 0.5 : 1) * o.maxCurl * (0.5 - 0.5 * Math.cos(phase));
  };
  for (const side of ['left', 'right'] as const) {
    // The axis a finger curls toward the palm about (handSolver's CURL_AXIS).
    const axis: [number, number, number] = side === 'left' ? [0, 0, -1] : [0, 0, 1];
    DIGITS.forEach((d, k) => {
      for (const bone of d.bones) {
        const values = new Float32Array(n * 4);
        for (let i = 0; i < n; i++) {
          values.set(fromAxisAngle(axis, jointAngle(k, times[i])), i * 4);
        }
        rotations[`${side}${bone}` as HumanBoneName] = { times, values };
      }
    });
  }
  const motion = buildMotion({ rotations, generator: 'handWaveMotion (test)' });
  return {
    motion,
    curl: (_side, digit, t) => {
      const k = DIGITS.findIndex((d) => d.digit === digit);
      return 3 * jointAngle(k, t);
    },
  };
}
