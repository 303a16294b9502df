/**
 * Frames the detector read as seen from behind. On a figure facing the camera BlazePose sometimes
 * labels the whole body as if it faced away for a frame or two: left and right swapped, depth turned
 * inside out. Such a frame's facing (forward = hip line × up) points opposite to most of its neighbours' within a
 * second; it is mirrored back (labels swapped, depth negated about the hips). A real turn away lasts,
 * so its frames soon have the majority themselves and are left alone.
 */
import { POSE_LANDMARKS, LANDMARK_INDEX, POSE_LANDMARK_COUNT } from './landmarks';

/** Seconds on each side whose frames' median facing a frame is compared with: a misreading lasting up to about this long is undone. */
export const FLIP_WINDOW_SECONDS = 1;
/** Facing cosines below this count a neighbour as facing the other way (above its negative: the same way). */
export const FLIP_COS = -0.3;
/** A frame is mirrored when the neighbours facing the other way outnumber those facing its way by this factor. */
export const FLIP_MAJORITY = 1.5;

const N = POSE_LANDMARK_COUNT * 3;
const MIRROR: readonly number[] = POSE_LANDMARKS.map((name) => {
  const other = name.startsWith('left') ? 'right' + name.slice(4)
    : name.startsWith('right') ? 'left' + name.slice(5) : name === 'mouthLeft' ? 'mouthRight' : name === 'mouthRight' ? 'mouthLeft' : name;
  return LANDMARK_INDEX[other as keyof typeof LANDMARK_INDEX];
});

/** Horizontal facing of a frame of MediaPipe world landmarks (x, z; y is down there). */
function facing(world: ArrayLike<number>, k: number): [number, number] {
  const l = LANDMARK_INDEX.leftHip * 3 + k * N, r = LANDMARK_INDEX.rightHip * 3 + k * N;
  const ls = LANDMARK_INDEX.leftShoulder * 3 + k * N, rs = LANDMARK_INDEX.rightShoulder * 3 + k * N;
  // Across: the hip and shoulder lines together; forward in MediaPipe's frame (y down, z away) is -(across × down) ...
  const ax = world[l] - world[r] + world[ls] - world[rs], az = world[l + 2] - world[r + 2] + world[ls + 2] - world[rs + 2];
  // ... which for a horizontal across (ax, az) is toward the camera when the subject's left is on the image's right: (az, -ax).
  const n = Math.hypot(ax, az) || 1;
  return [az / n, -ax / n];
}

/**
 * Mirrors, in place, frames whose body is read facing away from its neighbours. `world` and `image`
 * hold `count` frames of 99 numbers each; returns the indices of the frames flipped.
 */
export function unflipFrames(world: Float64Array, image: Float64Array, times: ArrayLike<number>): number[] {
  const count = times.length;
  const f = Array.from({ length: count }, (_, k) => facing(world, k));
  const flipped: number[] = [];
  for (let k = 0; k < count; k++) {
    let agree = 0, against = 0;
    for (let j = 0; j < count; j++) {
      if (j === k || Math.abs(times[j] - times[k]) > FLIP_WINDOW_SECONDS) continue;
      const d = f[j][0] * f[k][0] + f[j][1] * f[k][1];
      if (d > -FLIP_COS) agree++;
      else if (d < FLIP_COS) against++;
    }
    // A clear majority of the neighbours faces the other way (a fast turn splits them and flips nothing).
    if (against >= FLIP_MAJORITY * agree && against > 0) flipped.push(k);
  }
  for (const k of flipped) {
    for (const arr of [world, image]) {
      const copy = arr.slice(k * N, (k + 1) * N);
      for (let i = 0; i < POSE_LANDMARK_COUNT; i++) {
        const src = MIRROR[i] * 3;
        arr[k * N + i * 3] = copy[src];
        arr[k * N + i * 3 + 1] = copy[src + 1];
        // Depth turned inside out: negate about the hips (world landmarks are centred there already).
        arr[k * N + i * 3 + 2] = arr === world ? -copy[src + 2] : copy[src + 2];
      }
    }
  }
  return flipped;
}
