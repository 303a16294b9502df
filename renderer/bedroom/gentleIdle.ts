/**
 * A quiet standing idle on the standard skeleton: arms relaxed down, a slow breath and a slight
 * sway, looping every 4 s. Used while the assets' idle is not available.
 */
import type { Motion, Quat, Vec3 } from '../../shared/motion/types';
import { fromAxisAngle, mul } from '../../shared/math/quat';
import { buildMotion, type KeyTrack } from '../../shared/vrma/buildMotion';
import type { HumanBoneName } from '../../shared/vrm/humanBones';

const DEG = Math.PI / 180;
const LOOP_SEC = 4;
const KEYS = 17;

function track(at: (phase: number) => Quat): KeyTrack {
  const times = new Float32Array(KEYS);
  const values = new Float32Array(KEYS * 4);
  for (let i = 0; i < KEYS; i++) {
    const t = (i / (KEYS - 1)) * LOOP_SEC;
    times[i] = t;
    values.set(at((2 * Math.PI * t) / LOOP_SEC), i * 4);
  }
  return { times, values };
}

export function makeGentleIdle(): Motion {
  const X: Vec3 = [1, 0, 0];
  const Y: Vec3 = [0, 1, 0];
  const Z: Vec3 = [0, 0, 1];
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {
    spine: track((p) => fromAxisAngle(Z, 1.2 * DEG * Math.sin(p))),
    chest: track((p) => fromAxisAngle(X, -1.0 * DEG * Math.sin(2 * p))),
    head: track((p) => fromAxisAngle(Y, 3 * DEG * Math.sin(p + 0.6))),
    leftUpperArm: track((p) => mul(fromAxisAngle(Z, -72 * DEG + 1.5 * DEG * Math.sin(2 * p)), fromAxisAngle(Y, -8 * DEG))),
    rightUpperArm: track((p) => mul(fromAxisAngle(Z, 72 * DEG - 1.5 * DEG * Math.sin(2 * p)), fromAxisAngle(Y, 8 * DEG))),
    leftLowerArm: track(() => fromAxisAngle(Y, -12 * DEG)),
    rightLowerArm: track(() => fromAxisAngle(Y, 12 * DEG)),
  };
  return buildMotion({ rotations, generator: 'VRMA Studio bedroom (idle)' });
}
