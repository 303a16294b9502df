/** Frames read as seen from behind are mirrored back; a real turn away is left alone. */
import { describe, expect, it } from 'vitest';
import { unflipFrames } from '../../../shared/capture/flippedFrames';
import { POSE_LANDMARKS } from '../../../shared/capture/landmarks';

const MIRROR = POSE_LANDMARKS.map((n) =>
  POSE_LANDMARKS.indexOf(
    (n.startsWith('left') ? 'right' + n.slice(4) : n.startsWith('right') ? 'left' + n.slice(5) : n === 'mouthLeft' ? 'mouthRight' : n === 'mouthRight' ? 'mouthLeft' : n) as (typeof POSE_LANDMARKS)[
      number
    ],
  )
);

/** A body facing the camera turned by `yaw` about the vertical, in MediaPipe's frame (y down, z away). */
function frame(yaw: number, misread: boolean): number[] {
  const out: number[] = [];
  for (const name of POSE_LANDMARKS) {
    // Landmarks on a simple body: left at +x, right at -x, the face forward (-z toward the camera).
    const side = name.startsWith('left') || name === 'mouthLeft' ? 1 : name.startsWith('right') || name === 'mouthRight' ? -1 : 0;
    const i = name.length;
    const x = side * (0.1 + (i % 4) * 0.03), y = -0.5 + (i % 7) * 0.1, z = name === 'nose' ? -0.1 : (i % 3) * 0.02 + side * 0.01;
    const c = Math.cos(yaw), s = Math.sin(yaw);
    out.push(c * x + s * z, y, -s * x + c * z);
  }
  if (!misread) return out;
  // The misreading: the same image points named the other way round, their depth turned inside out.
  return MIRROR.flatMap((j) => [out[j * 3], out[j * 3 + 1], -out[j * 3 + 2]]);
}

describe('unflipFrames', () => {
  it('mirrors isolated and short runs of misread frames back, bit for bit', () => {
    const n = 30, times = Array.from({ length: n }, (_, i) => i / 10);
    const bad = new Set([0, 8, 9, 10, 11, 12, 13, 20, 26]);
    const world = Float64Array.from(Array.from({ length: n }, (_, k) => frame(0.1 * Math.sin(k / 5), bad.has(k))).flat());
    const image = new Float64Array(world.length);
    const flipped = unflipFrames(world, image, times);
    expect(flipped).toEqual([...bad].sort((a, b) => a - b));
    for (let k = 0; k < n; k++) {
      const want = frame(0.1 * Math.sin(k / 5), false);
      for (let i = 0; i < 99; i++) expect(world[k * 99 + i]).toBeCloseTo(want[i], 12);
    }
  });

  it('leaves a real half turn alone', () => {
    const n = 60, times = Array.from({ length: n }, (_, i) => i / 10);
    // Turns away over 1 s and stays turned for 3 s.
    const yaw = (k: number) => Math.PI * Math.min(1, Math.max(0, (k - 10) / 10));
    const world = Float64Array.from(Array.from({ length: n }, (_, k) => frame(yaw(k), false)).flat());
    expect(unflipFrames(world, new Float64Array(world.length), times)).toEqual([]);
  });
});
