/**
 * The foot points contact detection reads, per frame of the motion's grid: each ankle's clearance
 * (height above its rest height) and horizontal position, and each toe's clearance. Kept apart from
 * the detection so a long motion's track is measured once and, after an edit, only where the edit
 * changed a channel that moves a foot: an arm, head or spine edit reuses the whole track, a leg edit
 * re-measures the frames between the keys it changed. Figures are those of the whole-skeleton FK
 * (createPoseEvaluator with `only` composes the same matrices), so contacts found from a track equal
 * those found from full poses.
 */
import type { Channel, Motion } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { changedSpan } from '../motion/channelDiff';
import { skeletonPlan, type SkeletonPose } from '../vrma/fk';
import { createChainMeasurer, type ChainMeasurer } from './footChains';
import { frameTimes } from './poseDelta';
import { lowerBound, upperBound } from './keyBuffer';

export { changedSpan };

export const FEET = ['left', 'right'] as const;
export const FOOT_POINTS = { left: ['leftFoot', 'leftToes'], right: ['rightFoot', 'rightToes'] } as const;
const POINT_BONES: readonly HumanBoneName[] = ['leftFoot', 'leftToes', 'rightFoot', 'rightToes'];

export interface FootTrack {
  /** The motion measured. */
  readonly motion: Motion;
  /** Its frame grid (frameTimes). */
  readonly times: Float32Array;
  /** Per frame f and foot k (0 left, 1 right) at (f * 2 + k): the ankle's clearance in metres. */
  readonly ankleY: Float64Array;
  /** The same for the toes (Infinity where the skeleton has no toes). */
  readonly toesY: Float64Array;
  /** Per frame and foot at (f * 2 + k) * 2: the ankle's world x and z. */
  readonly ankleXZ: Float64Array;
}

/** Frame ranges [from, to) still to measure. */
export type FrameRanges = readonly (readonly [number, number])[];

function emptyTrack(motion: Motion, times: Float32Array): FootTrack {
  const n = times.length;
  return { motion, times, ankleY: new Float64Array(n * 2), toesY: new Float64Array(n * 2), ankleXZ: new Float64Array(n * 4) };
}

/** Numbers per frame of ankleY, toesY and ankleXZ. */
const WIDTHS = [2, 2, 4] as const;
/** Most frames between the shared ends of two grids that are measured again rather than matched by time. */
const MEASURED_BETWEEN = 8192;
/** Frames of room kept before and after a reused track's frames: a range edit adds or drops a few, its undo puts them back. */
const ROOM = 1024;

/** Where a reused track's arrays sit in buffers with room at either end (their first frame's place, the frames there is room for). */
interface Room {
  readonly buffers: readonly [ArrayBuffer, ArrayBuffer, ArrayBuffer];
  readonly start: number;
  readonly capacity: number;
}
const rooms = new WeakMap<Float64Array, Room>();

function viewsIn(motion: Motion, times: Float32Array, buffers: Room['buffers'], start: number, capacity: number): FootTrack {
  const n = times.length;
  const [ankleY, toesY, ankleXZ] = WIDTHS.map((w, i) => new Float64Array(buffers[i], start * w * 8, n * w));
  rooms.set(ankleY, { buffers, start, capacity });
  return { motion, times, ankleY, toesY, ankleXZ };
}

/** An empty track whose arrays have room at either end (the studio's one track, planFootTrack with reuse). */
function roomyTrack(motion: Motion, times: Float32Array): FootTrack {
  const capacity = times.length + 2 * ROOM;
  const buffers = WIDTHS.map((w) => new ArrayBuffer(capacity * w * 8)) as unknown as Room['buffers'];
  return viewsIn(motion, times, buffers, ROOM, capacity);
}

/**
 * `prev`'s figures put on a grid of `times` in the same buffers, its first `head` and last `tail`
 * frames kept, by moving the shorter of the two within the room (undefined without the room): a
 * range edit and its undo then move a few seconds of figures instead of copying every frame's into
 * new arrays (at the hour 27.6 MB, page faults, most of an undo's time). prev's arrays are used up.
 */
function shiftedInPlace(prev: FootTrack, next: Motion, times: Float32Array, head: number, tail: number): FootTrack | undefined {
  const room = rooms.get(prev.ankleY);
  if (!room) return undefined;
  const n0 = prev.times.length, n1 = times.length, d = n1 - n0, s = room.start;
  const moveTail = s + n1 <= room.capacity, moveHead = s - d >= 0 && s - d + n1 <= room.capacity;
  if (!moveTail && !moveHead) return undefined;
  const headFirst = moveHead && (!moveTail || head < tail);
  WIDTHS.forEach((w, i) => {
    const all = new Float64Array(room.buffers[i]);
    if (headFirst) all.copyWithin((s - d) * w, s * w, (s + head) * w);
    else all.copyWithin((s + n1 - tail) * w, (s + n0 - tail) * w, (s + n0) * w);
  });
  rooms.delete(prev.ankleY);
  return viewsIn(next, times, room.buffers, headFirst ? s - d : s, room.capacity);
}

function store(track: FootTrack, f: number, pose: SkeletonPose): void {
  const rest = track.motion.rest.bones;
  FEET.forEach((foot, k) => {
    const [ankle, toes] = FOOT_POINTS[foot];
    const a = pose[ankle], ra = rest[ankle];
    const p = a?.position;
    track.ankleY[f * 2 + k] = a && ra ? a.position[1] - ra.worldPosition[1] : Infinity;
    track.ankleXZ[(f * 2 + k) * 2] = p ? p[0] : NaN;
    track.ankleXZ[(f * 2 + k) * 2 + 1] = p ? p[2] : NaN;
    const t = pose[toes], rt = rest[toes];
    track.toesY[f * 2 + k] = t && rt ? t.position[1] - rt.worldPosition[1] : Infinity;
  });
}

/** The track from poses already evaluated at every frame of `times` (pin-feet has them for its IK). */
export function footTrackFromPoses(motion: Motion, times: Float32Array, poses: readonly SkeletonPose[]): FootTrack {
  const track = emptyTrack(motion, times);
  poses.forEach((pose, f) => store(track, f, pose));
  return track;
}

/** Frames measured per call of the chains (the scratch array's size). */
const CHUNK = 1024;
const measurers = new WeakMap<Motion, { chains: ChainMeasurer; at: Float64Array }>();

/**
 * Measures frames [from, to) of the track (the slice a caller can afford now); returns the key
 * comparisons it made (linear in frames and keys: footChains.ts).
 */
export function measureFootFrames(track: FootTrack, from: number, to: number): number {
  let m = measurers.get(track.motion);
  if (!m) measurers.set(track.motion, m = { chains: createChainMeasurer(track.motion, POINT_BONES), at: new Float64Array(CHUNK * 12) });
  const rest = track.motion.rest.bones, at = m.at, has = m.chains.present;
  let work = 0;
  for (let lo = Math.max(0, from), end = Math.min(to, track.times.length); lo < end; lo += CHUNK) {
    const hi = Math.min(end, lo + CHUNK);
    work += m.chains.measure(track.times, lo, hi, at);
    // POINT_BONES' order: left ankle, left toes, right ankle, right toes; store()'s figures.
    for (let f = lo; f < hi; f++) {
      for (let k = 0; k < 2; k++) {
        const [ankle, toes] = FOOT_POINTS[FEET[k]];
        const a = (f - lo) * 12 + k * 6, t = a + 3, ra = rest[ankle], rt = rest[toes];
        track.ankleY[f * 2 + k] = has[k * 2] && ra ? at[a + 1] - ra.worldPosition[1] : Infinity;
        track.ankleXZ[(f * 2 + k) * 2] = has[k * 2] ? at[a] : NaN;
        track.ankleXZ[(f * 2 + k) * 2 + 1] = has[k * 2] ? at[a + 2] : NaN;
        track.toesY[f * 2 + k] = has[k * 2 + 1] && rt ? at[t + 1] - rt.worldPosition[1] : Infinity;
      }
    }
  }
  return work;
}

/**
 * The channels measuring reads (those on the foot points' chains): a motion with only these, copied,
 * measures the same figures (the motion file worker keeps them to measure after it handed the motion on).
 */
export function footChannels(motion: Motion): readonly Channel[] {
  return skeletonPlan(motion, POINT_BONES).channels;
}

/** The whole track of `motion` on the frame grid `times` (frameTimes of the motion it was cut from). */
export function footTrackOn(motion: Motion, times: Float32Array): FootTrack {
  const track = emptyTrack(motion, times);
  measureFootFrames(track, 0, times.length);
  return track;
}

/** The figures of a whole track measured elsewhere (a worker), on their way. */
export type FootFigures = Pick<FootTrack, 'ankleY' | 'toesY' | 'ankleXZ'>;
const offered = new WeakMap<Motion, Promise<FootFigures | undefined>>();

/** Figures of `motion`'s whole track being measured elsewhere; whoever measures it first may take them. */
export function offerFootFigures(motion: Motion, figures: Promise<FootFigures | undefined>): void {
  offered.set(motion, figures);
}

/** The offered figures of `motion`, once (undefined when none were offered). */
export function takeFootFigures(motion: Motion): Promise<FootFigures | undefined> | undefined {
  const p = offered.get(motion);
  offered.delete(motion);
  return p;
}

/** The whole track of a motion. */
export function createFootTrack(motion: Motion): FootTrack {
  const { track, todo } = planFootTrack(motion);
  for (const [a, b] of todo) measureFootFrames(track, a, b);
  return track;
}

/** Nodes whose animation moves a foot point: the points and all their ancestors. */
function footNodes(motion: Motion): Uint8Array {
  const nodes = Array.isArray(motion.gltf.nodes) ? (motion.gltf.nodes as { children?: unknown }[]) : [];
  const parent = new Int32Array(nodes.length).fill(-1);
  nodes.forEach((n, i) => {
    for (const c of Array.isArray(n.children) ? (n.children as number[]) : []) if (Number.isInteger(c) && c >= 0 && c < nodes.length && parent[c] === -1) parent[c] = i;
  });
  const mark = new Uint8Array(nodes.length);
  for (const b of POINT_BONES) {
    // Bounded by the node count, so a parent cycle in a damaged file ends the walk.
    let cur = motion.humanoid.boneToNode[b] ?? -1;
    for (let steps = 0; cur >= 0 && cur < nodes.length && !mark[cur] && steps <= nodes.length; steps++, cur = parent[cur]) mark[cur] = 1;
  }
  return mark;
}

/**
 * A track for `next`: with `prev` (the track of the motion before an edit), its figures at every
 * frame time both grids have (a key inserted at the playhead adds a time to the grid) outside the
 * span where the edit changed a channel that moves a foot, and the frame ranges left to measure.
 * Without a usable `prev` (another skeleton or rest pose), every frame is to measure.
 */
export interface PlanOptions {
  /**
   * Measure into `prev`'s own arrays where the frame grid is the same (no allocation per edit: the
   * studio keeps only its latest track); `prev` then belongs to the returned track.
   */
  readonly reuse?: boolean;
  /** Time spans whose figures in `prev` are not its motion's (a measuring left unfinished): measured again. */
  readonly stale?: readonly (readonly [number, number])[];
}

function sameGrid(a: Float32Array, b: Float32Array): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * With `kept`, the track is new arrays on another grid whose first `head` frames are `prev`'s first
 * and whose last `tail` frames are `prev`'s last (what follows the figures, the contacts' memo, can
 * keep those).
 */
export function planFootTrack(next: Motion, prev?: FootTrack, opts: PlanOptions = {}): { track: FootTrack; todo: FrameRanges; kept?: { readonly head: number; readonly tail: number } } {
  const times = frameTimes(next);
  const p = prev?.motion;
  if (!prev || !p || p.gltf.nodes !== next.gltf.nodes || p.rest !== next.rest || p.humanoid !== next.humanoid) {
    return { track: opts.reuse ? roomyTrack(next, times) : emptyTrack(next, times), todo: [[0, times.length]] };
  }
  const relevant = footNodes(next);
  const key = (c: Channel) => `${c.node}/${c.path}`;
  const before = new Map<string, Channel>();
  for (const c of p.channels) if (relevant[c.node]) before.set(key(c), c);
  let lo = Infinity, hi = -Infinity;
  const widen = (span: readonly [number, number] | undefined) => {
    if (span) {
      lo = Math.min(lo, span[0]);
      hi = Math.max(hi, span[1]);
    }
  };
  for (const c of next.channels) {
    if (!relevant[c.node]) continue;
    const k = key(c);
    widen(changedSpan(before.get(k), c));
    before.delete(k);
  }
  for (const gone of before.values()) widen(changedSpan(gone, undefined));
  const stale = opts.stale ?? [];
  if (lo > hi && !stale.length && prev.times === times) return { track: { ...prev, motion: next }, todo: [] };
  // Only the frames inside the changed spans, found by binary search: a walk over every frame of an
  // hour (432,001 at 120 fps) after every edit was most of what a small edit cost this track.
  const spans: (readonly [number, number])[] = lo <= hi ? [[lo, hi], ...stale] : [...stale];
  const ranges = spans.map(([a, b]) => [lowerBound(times, a), upperBound(times, b)] as [number, number]).filter(([a, b]) => b > a);
  if (opts.reuse && sameGrid(prev.times, times)) return { track: { ...prev, motion: next, times }, todo: merged(ranges) };
  const old = prev.times;
  const both = Math.min(old.length, times.length);
  let head = 0;
  while (head < both && old[head] === times[head]) head++;
  let tail = 0;
  while (tail < both - head && old[old.length - 1 - tail] === times[times.length - 1 - tail]) tail++;
  // Reused: the frames between the shared ends are all measured again (a few seconds of a range
  // edit); a longer stretch between them is matched frame by frame below instead.
  const shifted = opts.reuse && times.length - tail - head <= MEASURED_BETWEEN ? shiftedInPlace(prev, next, times, head, tail) : undefined;
  if (shifted) return { track: shifted, todo: merged([...ranges, [head, times.length - tail] as [number, number]].filter(([a, b]) => b > a)), kept: { head, tail } };
  // Copied, so the previous track stays whole (it is an undo away for whoever keeps it): the frames
  // both grids share at their start and end in blocks, those in between one by one; a frame in a
  // changed span is copied too and then measured again.
  const track = opts.reuse ? roomyTrack(next, times) : emptyTrack(next, times);
  const copy = (f: number, j: number, count: number) => {
    track.ankleY.set(prev.ankleY.subarray(j * 2, (j + count) * 2), f * 2);
    track.toesY.set(prev.toesY.subarray(j * 2, (j + count) * 2), f * 2);
    track.ankleXZ.set(prev.ankleXZ.subarray(j * 4, (j + count) * 4), f * 4);
  };
  copy(0, 0, head);
  copy(times.length - tail, old.length - tail, tail);
  for (let f = head, j = head; f < times.length - tail; f++) {
    const t = times[f];
    while (j < old.length && old[j] < t) j++;
    if (j < old.length && old[j] === t) copy(f, j, 1);
    else ranges.push([f, f + 1]);
  }
  return { track, todo: merged(ranges), kept: { head, tail } };
}

/** Frame ranges sorted and joined where they touch or overlap. */
function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const [a, b] of ranges.sort((x, y) => x[0] - y[0])) {
    const last = out[out.length - 1];
    if (last && last[1] >= a) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}
