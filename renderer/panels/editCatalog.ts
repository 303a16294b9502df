/**
 * Every edit of the motion core as the edit panel shows it: label, hover explanation, parameters,
 * when it applies, and how it is called (by name from shared/edits, so a missing core function
 * shows the edit as unavailable rather than breaking the panel).
 */
import type { Motion } from '../../shared/motion/types';
import type { TimeRange } from '../app/range';
import * as edits from '../../shared/edits/index';

const coreExports: Record<string, unknown> = edits;

/** A function exported by one of the core's edit modules, if present. */
export function coreEdit<F extends (...args: never[]) => unknown>(name: string): F | null {
  const f = coreExports[name];
  return typeof f === 'function' ? (f as F) : null;
}

export interface EditParam {
  readonly id: string;
  readonly label: string;
  readonly kind: 'number' | 'checkbox' | 'motionFile';
  readonly value?: number | boolean;
  readonly min?: number;
  readonly max?: number;
  readonly step?: number;
  readonly title?: string;
}

export type ParamValues = Record<string, number | boolean | Motion | undefined>;

export interface EditContext {
  readonly motion: Motion;
  readonly duration: number;
  readonly range: TimeRange | null;
  readonly time: number;
  readonly fps: number;
}

export interface EditResult {
  readonly motion: Motion;
  /** Figures to show after the edit (e.g. optimize's before/after). */
  readonly report?: string;
}

export interface EditSpec {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly params: readonly EditParam[];
  /** Core function names this edit needs. */
  readonly needs: readonly string[];
  /** Why the edit cannot run now, or null when it can. */
  disabledReason(ctx: EditContext): string | null;
  run(ctx: EditContext, p: ParamValues): EditResult;
}

const needsRange = (ctx: EditContext) => (ctx.range ? null : 'Set IN and OUT on the timeline first (keys I and O)');
const needsLength = (ctx: EditContext) => (ctx.duration > 0 ? null : 'The motion has a single frame');
const num = (p: ParamValues, id: string) => Number(p[id]);
type AnyFn = (...args: unknown[]) => unknown;
const call = (name: string, ...args: unknown[]) => (coreEdit<AnyFn>(name)!(...args)) as Motion;

function hasHipsTranslation(m: Motion): boolean {
  const hips = m.humanoid.boneToNode.hips;
  return m.channels.some((c) => c.node === hips && c.path === 'translation' && c.times.length > 1);
}

const outlierCache = new WeakMap<Motion, boolean>();
function hasOutliers(m: Motion): boolean {
  let v = outlierCache.get(m);
  if (v === undefined) {
    const found = coreEdit<(m: Motion) => { frames: Float32Array; first: number; last: number } | undefined>('findOutlierFrames')?.(m);
    v = !!found && (found.first > 0 || found.last < found.frames.length - 1);
    outlierCache.set(m, v);
  }
  return v;
}

function countKeys(m: Motion): number {
  let n = 0;
  for (const c of m.channels) n += c.times.length;
  return n;
}

export const EDITS: readonly EditSpec[] = [
  {
    id: 'keepRange',
    label: 'Keep range',
    description: 'Keep only the part between IN and OUT; the rest is cut away and the kept part starts at 0.',
    params: [],
    needs: ['keepRange'],
    disabledReason: needsRange,
    run: (ctx) => ({ motion: call('keepRange', ctx.motion, ctx.range!.start, ctx.range!.end) }),
  },
  {
    id: 'deleteRange',
    label: 'Delete range',
    description: 'Remove the part between IN and OUT and join the rest with a short crossfade so there is no jump.',
    params: [{ id: 'blend', label: 'Blend (s)', kind: 'number', value: 0.2, min: 0, max: 5, step: 0.05, title: 'Crossfade length at the joint' }],
    needs: ['deleteRange'],
    disabledReason: needsRange,
    run: (ctx, p) => ({ motion: call('deleteRange', ctx.motion, ctx.range!.start, ctx.range!.end, num(p, 'blend')) }),
  },
  {
    id: 'join',
    label: 'Join motion',
    description: 'Append another motion file after this one, crossfading over the blend time.',
    params: [
      { id: 'other', label: 'Motion file', kind: 'motionFile', title: 'The motion to append (.vrma, .vmd, .bvh)' },
      { id: 'blend', label: 'Blend (s)', kind: 'number', value: 0.3, min: 0, max: 5, step: 0.05 },
    ],
    needs: ['join'],
    disabledReason: () => null,
    run: (ctx, p) => {
      if (!p.other) throw new Error('Choose a motion file to join');
      return { motion: call('join', ctx.motion, p.other, { blend: num(p, 'blend') }) };
    },
  },
  {
    id: 'speed',
    label: 'Speed',
    description: 'Play faster or slower: 2 halves the duration, 0.5 doubles it. Keys are moved, not resampled.',
    params: [{ id: 'factor', label: 'Factor', kind: 'number', value: 1.5, min: 0.05, max: 20, step: 0.05 }],
    needs: ['changeSpeed'],
    disabledReason: needsLength,
    run: (ctx, p) => ({ motion: call('changeSpeed', ctx.motion, num(p, 'factor')) }),
  },
  {
    id: 'reverse',
    label: 'Reverse',
    description: 'Play the motion backwards.',
    params: [],
    needs: ['reverse'],
    disabledReason: needsLength,
    run: (ctx) => ({ motion: call('reverse', ctx.motion) }),
  },
  {
    id: 'mirror',
    label: 'Mirror',
    description: 'Swap left and right: the left arm does what the right arm did, and the whole motion is reflected.',
    params: [],
    needs: ['mirror'],
    disabledReason: () => null,
    run: (ctx) => ({ motion: call('mirror', ctx.motion) }),
  },
  {
    id: 'inPlace',
    label: 'In place',
    description: 'Remove the forward and sideways travel of the hips so the avatar stays on the spot; height is kept.',
    params: [],
    needs: ['inPlace'],
    disabledReason: (ctx) => (hasHipsTranslation(ctx.motion) ? null : 'The motion has no hips movement'),
    run: (ctx) => ({ motion: call('inPlace', ctx.motion) }),
  },
  {
    id: 'smooth',
    label: 'Smooth',
    description: 'Soften jitter: a Gaussian average in time of the bone tracks (sigma in seconds). Expressions and gaze stay sharp.',
    params: [{ id: 'sigma', label: 'Sigma (s)', kind: 'number', value: 0.05, min: 0.005, max: 1, step: 0.005, title: 'Width of the Gaussian window' }],
    needs: ['smooth'],
    disabledReason: needsLength,
    run: (ctx, p) => ({ motion: call('smooth', ctx.motion, num(p, 'sigma')) }),
  },
  {
    id: 'loopSeam',
    label: 'Loop seam',
    description: 'Make the end flow back into the start so the motion loops without a jump, blending over the given time.',
    params: [{ id: 'blend', label: 'Blend (s)', kind: 'number', value: 0.3, min: 0.01, max: 5, step: 0.05 }],
    needs: ['loopSeam'],
    disabledReason: needsLength,
    run: (ctx, p) => ({ motion: call('loopSeam', ctx.motion, num(p, 'blend')) }),
  },
  {
    id: 'strip',
    label: 'Strip',
    description: 'Drop the finger tracks and/or the hips translation.',
    params: [
      { id: 'fingers', label: 'Fingers', kind: 'checkbox', value: true },
      { id: 'hipsTranslation', label: 'Hips translation', kind: 'checkbox', value: false },
    ],
    needs: ['strip'],
    disabledReason: () => null,
    run: (ctx, p) => ({ motion: call('strip', ctx.motion, { fingers: !!p.fingers, hipsTranslation: !!p.hipsTranslation }) }),
  },
  {
    id: 'optimize',
    label: 'Optimize',
    description: 'Remove keys that the neighbouring keys already reproduce within the tolerance; shows keys before and after.',
    params: [
      { id: 'rotation', label: 'Rotation (°)', kind: 'number', value: 0.23, min: 0.001, max: 10, step: 0.01, title: 'Largest rotation error allowed' },
      { id: 'position', label: 'Position (mm)', kind: 'number', value: 2, min: 0.01, max: 100, step: 0.5, title: 'Largest hips position error allowed' },
    ],
    needs: ['optimize'],
    disabledReason: needsLength,
    run: (ctx, p) => {
      const before = countKeys(ctx.motion);
      const motion = call('optimize', ctx.motion, { rotationTolerance: (num(p, 'rotation') * Math.PI) / 180, positionTolerance: num(p, 'position') / 1000 });
      const after = countKeys(motion);
      return { motion, report: `Optimize: ${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} keys (${before ? ((1 - after / before) * 100).toFixed(1) : '0'}% fewer)` };
    },
  },
  {
    id: 'fixOutliers',
    label: 'Fix outliers',
    description: 'Drop broken frames at the start or end (a rest-pose frame 0 or a stray last frame from a converter) and shift the times to start at 0.',
    params: [],
    needs: ['fixOutliers', 'findOutlierFrames'],
    disabledReason: (ctx) => (ctx.duration > 0 && hasOutliers(ctx.motion) ? null : 'No broken frames found at the start or end'),
    run: (ctx) => ({ motion: call('fixOutliers', ctx.motion) }),
  },
  {
    id: 'resample',
    label: 'Resample',
    description: 'Put every track on an even grid of the given frame rate.',
    params: [{ id: 'fps', label: 'Frame rate', kind: 'number', value: 30, min: 1, max: 240, step: 1 }],
    needs: ['resample'],
    disabledReason: needsLength,
    run: (ctx, p) => ({ motion: call('resample', ctx.motion, num(p, 'fps')) }),
  },
];

/** Why an edit is unavailable in this build (a core function missing), or null. */
export function missingIn(spec: EditSpec): string | null {
  const missing = spec.needs.filter((n) => !coreEdit(n));
  return missing.length ? `Not available in this build (the core has no ${missing.join(', ')})` : null;
}
