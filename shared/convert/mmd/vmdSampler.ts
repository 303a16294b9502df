/**
 * Samples VMD tracks at any (fractional) frame the way MMD plays them: between two keys each
 * position axis and the rotation follow the Bezier curve stored on the later key (rotation by slerp
 * along that curve), so sparse keys keep their eased timing.
 */
import type { VmdBoneTrack, VmdIkKey, VmdMorphTrack } from './vmd';
import { slerpFlat } from '../../math/quat';

/** y of MMD's Bezier (0,0)-(x1,y1)-(x2,y2)-(1,1) at x, control points in 0..127. */
export function bezierAt(x1: number, y1: number, x2: number, y2: number, x: number): number {
  if (x1 === y1 && x2 === y2) return x;
  const ax1 = x1 / 127, ay1 = y1 / 127, ax2 = x2 / 127, ay2 = y2 / 127;
  // Solve x(s) = x by bisection: x(s) is monotonic because the control x's lie in [0, 1].
  let lo = 0;
  let hi = 1;
  let s = x;
  for (let i = 0; i < 24; i++) {
    const inv = 1 - s;
    const xs = 3 * inv * inv * s * ax1 + 3 * inv * s * s * ax2 + s * s * s;
    if (Math.abs(xs - x) < 1e-7) break;
    if (xs < x) lo = s;
    else hi = s;
    s = (lo + hi) / 2;
  }
  const inv = 1 - s;
  return 3 * inv * inv * s * ay1 + 3 * inv * s * s * ay2 + s * s * s;
}

/** Index of the last key at or before `frame` (-1 if before the first), starting the search at `hint`. */
function keyBefore(frames: Uint32Array, frame: number, hint: number): number {
  let k = Math.min(Math.max(hint, -1), frames.length - 1);
  if (k >= 0 && frames[k] > frame) k = -1;
  while (k + 1 < frames.length && frames[k + 1] <= frame) k++;
  return k;
}

export class BoneTrackSampler {
  private cursor = -1;
  constructor(readonly track: VmdBoneTrack) {}

  /** Position (MMD units and axes) and rotation at `frame`. */
  sample(frame: number, pos: Float64Array, po: number, rot: Float64Array, ro: number): void {
    const { frames, positions: p, rotations: q, curves } = this.track;
    const k = (this.cursor = keyBefore(frames, frame, this.cursor));
    if (k < 0 || k === frames.length - 1 || frames[k] === frame) {
      const j = Math.max(k, 0);
      pos[po] = p[j * 3];
      pos[po + 1] = p[j * 3 + 1];
      pos[po + 2] = p[j * 3 + 2];
      rot[ro] = q[j * 4];
      rot[ro + 1] = q[j * 4 + 1];
      rot[ro + 2] = q[j * 4 + 2];
      rot[ro + 3] = q[j * 4 + 3];
      return;
    }
    const t = (frame - frames[k]) / (frames[k + 1] - frames[k]);
    const c = (k + 1) * 16;
    for (let axis = 0; axis < 3; axis++) {
      const e = bezierAt(curves[c + axis * 4], curves[c + axis * 4 + 1], curves[c + axis * 4 + 2], curves[c + axis * 4 + 3], t);
      const a = p[k * 3 + axis];
      pos[po + axis] = a + (p[(k + 1) * 3 + axis] - a) * e;
    }
    const e = bezierAt(curves[c + 12], curves[c + 13], curves[c + 14], curves[c + 15], t);
    slerpFlat(rot, ro, q, k * 4, q, (k + 1) * 4, e);
  }
}

/** Morph weight at `frame` (MMD interpolates morphs linearly). */
export function sampleMorph(track: VmdMorphTrack, frame: number): number {
  const { frames, weights } = track;
  const k = keyBefore(frames, frame, -1);
  if (k < 0) return weights[0];
  if (k === frames.length - 1) return weights[k];
  const t = (frame - frames[k]) / (frames[k + 1] - frames[k]);
  return weights[k] + (weights[k + 1] - weights[k]) * t;
}

/**
 * IK on/off per IK bone as step functions: on by default, each IK key that names the bone switches
 * it from that frame on. Built once so a long motion with many IK keys stays linear to sample.
 */
export class IkSwitches {
  private readonly steps = new Map<string, { frames: Uint32Array; on: Uint8Array }>();

  constructor(keys: readonly VmdIkKey[]) {
    const lists = new Map<string, { frames: number[]; on: number[] }>();
    for (const k of keys) {
      for (const [name, on] of k.enabled) {
        let l = lists.get(name);
        if (!l) lists.set(name, l = { frames: [], on: [] });
        l.frames.push(k.frame);
        l.on.push(on ? 1 : 0);
      }
    }
    for (const [name, l] of lists) this.steps.set(name, { frames: Uint32Array.from(l.frames), on: Uint8Array.from(l.on) });
  }

  enabled(ikKey: string, frame: number): boolean {
    const s = this.steps.get(ikKey);
    if (!s) return true;
    // Last switch at or before `frame` (keys are sorted by frame).
    let lo = 0;
    let hi = s.frames.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s.frames[mid] <= frame) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found < 0 ? true : s.on[found] === 1;
  }
}
