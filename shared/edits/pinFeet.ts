/**
 * Planted feet: find where each foot stands on the floor in the motion itself and hold it there with
 * leg IK (shared/ik/pinLimbs.ts), so captured and converted motions stop sliding.
 *
 * Contact detection, on the motion's frame grid and its own skeleton (world metres):
 * - a foot point's clearance is its height above where it is in the rest pose (the rest pose stands on
 *   the floor); the floor is the lowest ankle clearance of the motion (its 1st percentile, so one bad
 *   frame does not move it);
 * - a frame is a contact frame when the ankle or the toes are within `height` (default 5 cm) of the
 *   floor and the ankle's horizontal speed (over ±1 frame) is below `speed` (default 0.3 m/s; a walk's
 *   standing foot moves 0-0.15 m/s in the fixtures' captures, a swinging one 1-3 m/s);
 * - gaps shorter than half of `minContact` inside a contact (a one-frame speed blip) are closed, then
 *   runs shorter than `minContact` (default 0.1 s) are dropped.
 * During a contact the ankle is held at its horizontal position at the contact's start (its height
 * and the foot's world rotation stay the motion's own, so the heel still rolls); over `blend` seconds
 * (default 0.15) before and after, the hold fades in and out; frames farther from a contact (the
 * swing) are left exactly as they were. Where a leg cannot reach, the hips come down (smoothly).
 */
import type { Motion } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { fail } from '../errors';
import { createPoseEvaluator, type SkeletonPose } from '../vrma/fk';
import { LIMB_BONES, pinLimbs, type LimbPin } from '../ik/pinLimbs';
import { frameTimes } from './poseDelta';
import { FEET, FOOT_POINTS, createFootTrack, footTrackFromPoses, type FootTrack } from './footTrack';
import { requireFinite, requireNonNegative } from './params';
import { smoothstep } from './splice';
import { lowTail, lowTailAgain, remapLowTail, type LowTail } from './lowTail';
import { contactRuns, contactRunsAgain, remapRuns } from './contactRuns';
import { phase, type Progress } from './progress';

export type Foot = 'left' | 'right';

export interface ContactParams {
  /** Metres above the floor a foot point may be and still stand (default 0.05). */
  readonly height?: number;
  /** Largest horizontal ankle speed of a standing foot, m/s (default 0.3). */
  readonly speed?: number;
  /** Shortest contact kept, seconds (default 0.1). */
  readonly minContact?: number;
}

export interface PinFeetParams extends ContactParams {
  /** Fade in/out of each hold, seconds (default 0.15). */
  readonly blend?: number;
}

export const DEFAULT_CONTACT_HEIGHT = 0.05;
export const DEFAULT_CONTACT_SPEED = 0.3;
export const DEFAULT_MIN_CONTACT = 0.1;
export const DEFAULT_PIN_BLEND = 0.15;
export const MAX_CONTACT_HEIGHT = 1;
export const MAX_CONTACT_SPEED = 10;
export const MAX_PIN_BLEND = 2;

export interface FootContact {
  readonly foot: Foot;
  /** First and last frame (indices into `times`), inclusive. */
  readonly first: number;
  readonly last: number;
  /** Seconds of the first and last frame. */
  readonly start: number;
  readonly end: number;
}

export interface ContactDetection {
  /** The frame grid the contacts index. */
  readonly times: Float32Array;
  readonly contacts: readonly FootContact[];
  /** The floor: ankle clearance (metres above its rest height) the motion's lowest standing reaches. */
  readonly floor: number;
}

const FOOT_BONES = FOOT_POINTS;
const LEG: Record<Foot, 'leftLeg' | 'rightLeg'> = { left: 'leftLeg', right: 'rightLeg' };
const KNEE_BONES = { left: LIMB_BONES.leftLeg, right: LIMB_BONES.rightLeg };
/**
 * The bones the feet's contacts, holds, figures and leg IK read (hips, legs, feet, toes): poses of
 * only these (posesAt's `only`) are those of the whole skeleton, at a fraction of its cost on a long
 * motion, and pinLimbs takes them instead of evaluating its own.
 */
export const LEG_POSE_BONES: readonly HumanBoneName[] = ['hips', ...KNEE_BONES.left, ...KNEE_BONES.right, 'leftToes', 'rightToes'];

function checkContactParams(p: ContactParams): Required<ContactParams> {
  const height = requireNonNegative('height', p.height ?? DEFAULT_CONTACT_HEIGHT);
  const speed = requireFinite('speed', p.speed ?? DEFAULT_CONTACT_SPEED);
  if (!(speed > 0)) fail('BAD_PARAMETER', 'pinFeet.speedZero', { value: String(speed) });
  if (height > MAX_CONTACT_HEIGHT) fail('BAD_PARAMETER', 'pinFeet.height', { max: MAX_CONTACT_HEIGHT, value: String(height) });
  if (speed > MAX_CONTACT_SPEED) fail('BAD_PARAMETER', 'pinFeet.speed', { max: MAX_CONTACT_SPEED, value: String(speed) });
  return { height, speed, minContact: requireNonNegative('min-contact', p.minContact ?? DEFAULT_MIN_CONTACT) };
}

/** Whether the motion has both legs (upper leg, lower leg, foot) to pin. */
export function canPinFeet(motion: Motion): boolean {
  return (['left', 'right'] as const).every((f) => LIMB_BONES[LEG[f]].every((b) => motion.humanoid.boneToNode[b] !== undefined && !!motion.rest.bones[b]));
}

function requireFeet(motion: Motion): void {
  for (const f of ['left', 'right'] as const) {
    for (const b of LIMB_BONES[LEG[f]]) if (motion.humanoid.boneToNode[b] === undefined || !motion.rest.bones[b]) fail('BAD_PARAMETER', 'motion.noBone', { bone: b });
  }
}

/** Frames between two progress reports of posesAt (a report costs nothing next to 1024 FK poses). */
const FRAMES_PER_REPORT = 1024;

/** The poses at every frame (FK on the motion's own skeleton), of every bone or only of `only`. */
export function posesAt(motion: Motion, times: Float32Array, only?: readonly HumanBoneName[], progress?: Progress): SkeletonPose[] {
  const ev = createPoseEvaluator(motion, only);
  return Array.from(times, (t, f) => {
    if (progress && f % FRAMES_PER_REPORT === 0) progress(f / times.length);
    return ev(t);
  });
}

export function detectFootContacts(motion: Motion, params: ContactParams = {}, poses?: readonly SkeletonPose[]): ContactDetection {
  const p = checkContactParams(params);
  requireFeet(motion);
  if (!poses) return contactsOfTrack(createFootTrack(motion), p);
  return contactsOfTrack(footTrackFromPoses(motion, frameTimes(motion), poses), p);
}

/**
 * What finding a track's contacts leaves to find them again after some of its frames were measured
 * again (contactsOfTrackSince): the floors, and per foot the frames low and slow enough before short
 * gaps are closed and the contacts found from them.
 */
export interface ContactMemo {
  readonly ankleY: Float64Array;
  readonly params: Required<ContactParams>;
  readonly floor: LowTail;
  readonly toeFloor: LowTail;
  readonly standing: readonly [Uint8Array, Uint8Array];
  readonly runs: readonly [readonly FootContact[], readonly FootContact[]];
}

const maker = (foot: Foot, times: Float32Array) => (first: number, last: number): FootContact => ({ foot, first, last, start: times[first], end: times[last] });

/**
 * The memo for a track on another grid whose first `head` and last `tail` frames are the memo's
 * (footTrack.ts planFootTrack `kept`): frames in between must be among the changed ones passed next.
 */
export function remapContactMemo(memo: ContactMemo, track: FootTrack, head: number, tail: number): ContactMemo {
  const n = track.times.length, old = memo.standing[0].length;
  const standing = memo.standing.map((s) => {
    const out = new Uint8Array(n);
    out.set(s.subarray(0, head));
    out.set(s.subarray(old - tail), n - tail);
    return out;
  }) as unknown as readonly [Uint8Array, Uint8Array];
  const runs = FEET.map((foot, k) => remapRuns(memo.runs[k], old, n, head, tail, maker(foot, track.times))) as unknown as ContactMemo['runs'];
  const floor = remapLowTail(memo.floor, old * 2, n * 2, head, tail, 2), toeFloor = remapLowTail(memo.toeFloor, old * 2, n * 2, head, tail, 2);
  return { ...memo, ankleY: track.ankleY, standing, runs, floor, toeFloor };
}

/** Frames [from, to) of foot k: low (ankle or toes within `height` of their floor) and slow. */
function markStanding(track: FootTrack, k: number, floor: number, toeFloor: number, p: Required<ContactParams>, on: Uint8Array, from: number, to: number): void {
  const { times, ankleY, toesY, ankleXZ } = track;
  const n = times.length;
  for (let f = Math.max(0, from); f < Math.min(n, to); f++) {
    const a = Math.max(0, f - 1), b = Math.min(n - 1, f + 1);
    const ia = (a * 2 + k) * 2, ib = (b * 2 + k) * 2;
    const dt = times[b] - times[a];
    const v = dt > 0 ? Math.hypot(ankleXZ[ib] - ankleXZ[ia], ankleXZ[ib + 1] - ankleXZ[ia + 1]) / dt : 0;
    const low = ankleY[f * 2 + k] - floor <= p.height || toesY[f * 2 + k] - toeFloor <= p.height;
    on[f] = low && v <= p.speed ? 1 : 0;
  }
}

/** The contacts of a measured foot track (shared/edits/footTrack.ts), as detectFootContacts finds them. */
export function contactsOfTrack(track: FootTrack, params: ContactParams = {}): ContactDetection {
  return contactsOfTrackSince(track, null, [], params).detection;
}

/** Both feet's contacts in time order (the left first where two start together). */
function inTimeOrder(left: readonly FootContact[], right: readonly FootContact[]): FootContact[] {
  const out: FootContact[] = new Array(left.length + right.length);
  let i = 0, j = 0, k = 0;
  while (i < left.length && j < right.length) out[k++] = left[i].start <= right[j].start ? left[i++] : right[j++];
  while (i < left.length) out[k++] = left[i++];
  while (j < right.length) out[k++] = right[j++];
  return out;
}

/**
 * contactsOfTrack, the same contacts, where `memo` was left by finding those of the same arrays
 * before frames `changed` were measured again: the floors come from the memo's lists of low values
 * updated in the changed frames (lowTail.ts), only the changed frames (and one on each side, the
 * speed's) are judged again, and only the stretch of contacts around them is walked again
 * (contactRuns.ts), unless a floor moved. `memo` is used up (its arrays become the new memo's).
 * An edit of a few frames of an hour then costs about what it costs on a minute: before, every
 * frame's figures (864,002 for two feet) were scanned for the floors and every frame walked for the runs.
 */
export function contactsOfTrackSince(
  track: FootTrack,
  memo: ContactMemo | null,
  changed: readonly (readonly [number, number])[],
  params: ContactParams = {},
): { detection: ContactDetection; memo: ContactMemo } {
  const p = checkContactParams(params);
  const { times, ankleY, toesY } = track;
  const n = times.length;
  const same = memo && memo.ankleY === ankleY && memo.standing[0].length === n && memo.params.height === p.height && memo.params.speed === p.speed && memo.params.minContact === p.minContact;
  const values = changed.map(([a, b]) => [a * 2, b * 2] as const);
  const floor = (same && lowTailAgain(ankleY, 0.01, memo.floor, values)) || lowTail(ankleY, 0.01);
  const toeFloor = (same && lowTailAgain(toesY, 0.01, memo.toeFloor, values)) || lowTail(toesY, 0.01);
  const local = same && floor.value === memo.floor.value && toeFloor.value === memo.toeFloor.value;
  const standing: [Uint8Array, Uint8Array] = local ? [memo.standing[0], memo.standing[1]] : [new Uint8Array(n), new Uint8Array(n)];
  // A changed frame changes its neighbours' speed: those are judged again too.
  const judged = changed.map(([a, b]) => [a - 1, b + 1] as const);
  const runs = FEET.map((foot, k) => {
    const rules = { minContact: p.minContact, make: maker(foot, times) };
    if (!local) {
      markStanding(track, k, floor.value, toeFloor.value, p, standing[k], 0, n);
      return contactRuns(times, standing[k], rules);
    }
    for (const [a, b] of judged) markStanding(track, k, floor.value, toeFloor.value, p, standing[k], a, b);
    return contactRunsAgain(times, standing[k], rules, memo.runs[k], judged);
  }) as unknown as ContactMemo['runs'];
  return { detection: { times, contacts: inTimeOrder(runs[0], runs[1]), floor: floor.value }, memo: { ankleY, params: p, floor, toeFloor, standing, runs } };
}

/** The holds of one foot: weight 1 in its contacts, smoothstep fades of `blend` seconds outside them. */
export function footPins(detection: ContactDetection, poses: readonly SkeletonPose[], blend: number): LimbPin[] {
  const { times, contacts } = detection;
  const n = times.length;
  const pins: LimbPin[] = [];
  for (const foot of ['left', 'right'] as const) {
    const mine = contacts.filter((c) => c.foot === foot);
    if (!mine.length) continue;
    const bone = FOOT_BONES[foot][0];
    const weight = new Float64Array(n);
    const target = new Float64Array(n * 3);
    for (let f = 0; f < n; f++) {
      const t = times[f];
      let best = 0;
      let which: FootContact | undefined;
      for (const c of mine) {
        const gap = t < c.start ? c.start - t : t > c.end ? t - c.end : 0;
        const w = gap === 0 ? 1 : blend > 0 ? smoothstep(1 - gap / blend) : 0;
        if (w > best) {
          best = w;
          which = c;
        }
      }
      if (!which) continue;
      weight[f] = best;
      const held = poses[which.first][bone]!.position;
      const own = poses[f][bone]!.position;
      target[f * 3] = held[0];
      target[f * 3 + 1] = own[1];
      target[f * 3 + 2] = held[2];
    }
    pins.push({ limb: LEG[foot], weight, target });
  }
  return pins;
}

export interface PinFeetResult {
  readonly motion: Motion;
  readonly detection: ContactDetection;
  /** Largest hips drop (metres) needed for the legs to reach. */
  readonly maxHipsDrop: number;
}

/** With `progress`: the leg poses are most of the time (measured: ~60% on the 10-minute motion), detection ~12%, the pinning the rest. */
export function pinFeetDetailed(motion: Motion, params: PinFeetParams = {}, progress?: Progress): PinFeetResult {
  const blend = requireNonNegative('blend', params.blend ?? DEFAULT_PIN_BLEND);
  if (blend > MAX_PIN_BLEND) fail('BAD_PARAMETER', 'blend.tooLong', { max: MAX_PIN_BLEND, value: String(blend) });
  const times = frameTimes(motion);
  requireFeet(motion);
  const poses = posesAt(motion, times, LEG_POSE_BONES, phase(progress, 0, 0.6));
  const detection = detectFootContacts(motion, params, poses);
  progress?.(0.72);
  if (!detection.contacts.length) return { motion, detection, maxHipsDrop: 0 };
  const r = pinLimbs(motion, times, footPins(detection, poses, blend), { lowerHips: true, smoothing: blend, poses });
  progress?.(1);
  return { motion: r.motion, detection, maxHipsDrop: r.hipsDrop.reduce((m, d) => Math.max(m, d), 0) };
}

export function pinFeet(motion: Motion, params: PinFeetParams = {}): Motion {
  return pinFeetDetailed(motion, params).motion;
}
