/**
 * The one description of every motion edit. The CLI (main/cli/editCommand.ts) builds each edit's
 * subcommand, flags, --help and validation from it, and the studio (renderer/panels/editCatalog.ts)
 * builds its edit panel and `edit.<id>` commands from it, so a default or a range exists once.
 *
 * Adding an edit is one entry in EDITS: its `id` is its one name everywhere (CLI subcommand, panel
 * element ids `edit-<id>` / `edit-<id>-<param>`, studio command `edit.<id>`, i18n keys). What it needs
 * besides the motion is declared, not coded per front end:
 *   range: 'required' | 'optional'  -> CLI --from S --to S, panel: the timeline's IN/OUT
 *   other: true                      -> CLI second input file, panel: a motion file field
 *   time: true                       -> CLI --at S, panel: the playhead
 *   avatar: true                     -> CLI --avatar AVATAR.vrm, panel: the avatar on screen
 * Parameters are numbers (CLI --name VALUE) or booleans (CLI --name, or --no-name when the default is
 * true). Ranges are the core's own constants; the core functions check them again.
 *
 * Texts here are English (the CLI stays English). Translated studio labels are keyed by the ids:
 * `edit.<id>.label`, `edit.<id>.help` (the summary), `edit.<id>.param.<name>`, and the reasons an edit
 * does not apply `edit.reason.<code>`.
 */
import type { Motion } from '../motion/types';
import { boneChannel, durationOf } from '../motion/types';
import { fail } from '../errors';
import { requireFinite, requireInRange, requireNonNegative } from './params';
import { keepRange } from './keepRange';
import { deleteBlend, deleteRange, DEFAULT_DELETE_BLEND } from './deleteRange';
import { changeSpeed, MAX_SPEED_FACTOR, MIN_SPEED_FACTOR } from './speed';
import { reverse } from './reverse';
import { mirror } from './mirror';
import { inPlace } from './inPlace';
import { smooth, DEFAULT_SIGMA, MAX_SIGMA } from './smooth';
import { loopSeam, DEFAULT_LOOP_BLEND } from './loopSeam';
import { motionSeam } from './motionSeam';
import { strip } from './strip';
import {
  optimize,
  DEFAULT_POSITION_TOLERANCE,
  DEFAULT_ROTATION_TOLERANCE,
  MAX_POSITION_TOLERANCE,
  MAX_ROTATION_TOLERANCE,
} from './optimize';
import { maxPoseError, type PoseError } from './poseError';
import { readVrma } from '../vrma/read';
import { writeVrma, type WriteOptions } from '../vrma/write';
import { findOutlierFrames, fixOutliers, hasOutliers, outliersPending } from './fixOutliers';
import { join, DEFAULT_JOIN_BLEND } from './join';
import { resample, MAX_RESAMPLE_FPS, MIN_RESAMPLE_FPS } from './resample';
import { editOnRange, editPartBlended, editPartOnRange } from './rangeEdit';
import { mapMarkers, markersOf, withMarkers } from '../motion/markers';
import { measureContacts, newKneeJumps } from './contactReport';
import {
  canPinFeet,
  pinFeetDetailed,
  DEFAULT_CONTACT_HEIGHT,
  DEFAULT_CONTACT_SPEED,
  DEFAULT_MIN_CONTACT,
  DEFAULT_PIN_BLEND,
  MAX_CONTACT_HEIGHT,
  MAX_CONTACT_SPEED,
  MAX_PIN_BLEND,
  type PinFeetParams,
} from './pinFeet';
import { fitDetailed } from './fit';
import { bakeIntermediateNodes } from './bakeIntermediate';
import { animatedIntermediateNodes, playerPoseGap } from '../vrma/intermediateNodes';
import { pinRange, DEFAULT_PIN_RANGE_BLEND, MAX_PIN_RANGE_BLEND } from './pinRange';
import type { Limb } from '../ik/pinLimbs';
import type { AvatarSkeleton } from '../avatar/avatarSkeleton';
import { phase, type Progress } from './progress';
import { cm, count, factor, figure, fps, hipsTravel, keyCount, metres, mm, rad, ratio, sec, type EditFigure, type ReportLine } from './editReport';

export type ParamUnit = 's' | 'rad' | 'm' | 'm/s' | 'fps' | '';

export interface NumberParam {
  /** CLI flag (--name), panel field id, i18n key `edit.<id>.param.<name>`. */
  readonly name: string;
  readonly kind: 'number';
  /** English field label (without the unit). */
  readonly label: string;
  /** English one-line help (CLI --help, panel tooltip). */
  readonly help: string;
  readonly unit: ParamUnit;
  /** Used when the value is not given; without one the CLI requires the flag. */
  readonly default?: number;
  /** The panel's starting value for a required parameter (the CLI has no default for it). */
  readonly suggested?: number;
  readonly min: number;
  /** When true the value must be greater than min. */
  readonly minExclusive?: boolean;
  /** Infinity: no upper bound. */
  readonly max: number;
  /** A further limit that depends on the motion, checked by the core (e.g. "at most half the motion"). */
  readonly limit?: string;
  /** The panel's spinner step. */
  readonly step: number;
}

export interface BooleanParam {
  readonly name: string;
  readonly kind: 'boolean';
  readonly label: string;
  readonly help: string;
  readonly default: boolean;
}

export type EditParam = NumberParam | BooleanParam;

export type ParamValues = Readonly<Record<string, number | boolean>>;

export interface EditInput {
  readonly motion: Motion;
  /** For edits with `range`: [from, to] in seconds (an optional range absent: the whole motion). */
  readonly range?: { readonly from: number; readonly to: number };
  /** For edits with `other`: the second motion. */
  readonly other?: Motion;
  /** For edits with `time`: the time in seconds the edit acts at. */
  readonly time?: number;
  /** For edits with `avatar`: the avatar's rest skeleton (CLI --avatar FILE.vrm, panel: the studio's avatar). */
  readonly avatar?: AvatarSkeleton;
}

/** Why an edit has nothing to do on a motion; i18n key `edit.reason.<code>`. */
export const UNAVAILABLE_REASONS = {
  singleFrame: 'The motion has a single frame',
  noHipsTravel: 'The motion has no hips movement',
  noOutliers: 'No broken frames found at the start or end',
  measuring: 'Still measuring the motion just opened',
  noLegs: 'The motion has no complete legs (upper leg, lower leg, foot)',
  noIntermediate: 'No node between the bones is animated',
} as const;
export type UnavailableReason = keyof typeof UNAVAILABLE_REASONS;

export interface EditDefinition {
  readonly id: string;
  /** English button label. */
  readonly label: string;
  /** English one line: CLI command list, panel tooltip (`edit.<id>.help`). */
  readonly summary: string;
  /** English paragraphs of the CLI --help. */
  readonly description: readonly string[];
  readonly range?: 'required' | 'optional';
  readonly other?: true;
  readonly time?: true;
  /** Needs an avatar: CLI --avatar AVATAR.vrm, panel: the avatar shown. */
  readonly avatar?: true;
  readonly params: readonly EditParam[];
  /** Why the edit has nothing to do on this motion (the panel disables it), or null. Cheap or cached. */
  unavailable?(motion: Motion): UnavailableReason | null;
  /**
   * Takes over half a second on the 10-minute, 60 fps motion (CPU, measured: optimize 0.5-0.8 s with
   * its report, smooth 0.4-0.5 s, pin-feet 0.5-0.6 s, fit 2 s; every other edit under 0.2 s): the
   * studio runs it in a worker with a progress bar and Cancel on long motions, and `apply` reports progress.
   */
  readonly long?: true;
  /**
   * The pure edit. `p` holds every parameter, defaults filled in and checked (resolveParams). A `long`
   * edit calls `progress` with the fraction done (the result is the same with or without it).
   */
  apply(input: EditInput, p: ParamValues, progress?: Progress): Motion;
  /**
   * What changed: the figures the studio shows in the user's language (editReport.ts) and, per line,
   * the CLI's short English text.
   */
  report?(input: EditInput, output: Motion, p: ParamValues): ReportLine[];
  /** Costlier checks of the result, printed by the CLI only. */
  measure?(input: EditInput, output: Motion, p: ParamValues): string[];
  /** How the CLI writes the result (default: writeVrma's defaults, float). */
  write?(p: ParamValues): WriteOptions;
  /**
   * For edits that move time: where a timeline marker at t goes (null: it was cut away). Edits that
   * keep time keep the markers as they are (the Motion's extras are kept) and need none.
   */
  markerTime?(input: EditInput, p: ParamValues, output: Motion): (t: number) => number | null;
}

/** Marker mapping of an edit that changes the part [from, to] only: before kept, inside by `inside`, after shifted by the change in length. */
function partTime(input: EditInput, output: Motion, inside: (t: number, from: number, to: number) => number | null): (t: number) => number | null {
  const r = input.range ?? { from: 0, to: durationOf(input.motion) };
  const shift = durationOf(output) - durationOf(input.motion);
  return (t) => (t < r.from ? t : t > r.to ? t + shift : inside(t, r.from, r.to));
}

const singleFrame = (m: Motion): UnavailableReason | null => (durationOf(m) > 0 ? null : 'singleFrame');

function hasHipsTravel(m: Motion): boolean {
  const c = boneChannel(m, 'hips', 'translation');
  return !!c && c.times.length > 1;
}

const seconds = (x: number) => `${x.toFixed(3)} s`;
const durationChange = (a: Motion, b: Motion) => `duration ${seconds(durationOf(a))} -> ${seconds(durationOf(b))}`;
const durationFigure = (a: Motion, b: Motion): EditFigure => figure('duration', { before: sec(durationOf(a)), after: sec(durationOf(b)) });
/** Optimize's largest error as a reader will see the file: written and read back (the quantized rounding included). */
function optimizeError(source: Motion, out: Motion, p: ParamValues): PoseError {
  let err = optimizeErrors.get(out);
  if (!err) optimizeErrors.set(out, err = maxPoseError(source, p.quantize === true ? readVrma(writeVrma(out, { quantize: true })) : out));
  return err;
}
/** By result, so the CLI's report and measure measure once. */
const optimizeErrors = new WeakMap<Motion, PoseError>();
const num = (p: ParamValues, name: string) => p[name] as number;
const range = (input: EditInput) => input.range ?? { from: 0, to: durationOf(input.motion) };

/**
 * An edit with an optional range: the whole motion without one; with one, `how` says how the range
 * is edited (rangeEdit.ts): 'blend' = the edit blended into the range, 'part' = the part edited alone
 * and blended in, 'segment' = the part edited alone and put back (its length may change), and
 * 'exact' = blended in with no fade (key reduction and resampling do not change the pose).
 */
function onRange(input: EditInput, how: 'blend' | 'part' | 'segment' | 'exact', edit: (m: Motion) => Motion): Motion {
  if (!input.range) return edit(input.motion);
  if (how === 'segment') return editPartOnRange(input.motion, input.range, edit);
  if (how === 'part') return editPartBlended(input.motion, input.range, edit);
  return editOnRange(input.motion, input.range, edit, how === 'exact' ? 0 : undefined);
}
const cmText = (x: number) => `${(x * 100).toFixed(2)} cm`;
/** pin-feet's result by its output, so the report and the CLI's measure reuse the contacts found. */
const pinResults = new WeakMap<Motion, ReturnType<typeof pinFeetDetailed>>();
function pinFeetOf(input: EditInput, out: Motion, p: ParamValues): ReturnType<typeof pinFeetDetailed> {
  return pinResults.get(out) ?? pinFeetDetailed(input.motion, pinParams(p));
}
const fitResults = new WeakMap<Motion, ReturnType<typeof fitDetailed>>();
const pinParams = (p: ParamValues): PinFeetParams => ({ height: num(p, 'height'), speed: num(p, 'speed'), minContact: num(p, 'min-contact'), blend: num(p, 'blend') });
/** The contact parameters of pin-feet (fit pins with the same ones). */
const CONTACT_PARAMS: readonly EditParam[] = [
  {
    name: 'height',
    kind: 'number',
    label: 'Contact height',
    unit: 'm',
    default: DEFAULT_CONTACT_HEIGHT,
    min: 0,
    max: MAX_CONTACT_HEIGHT,
    step: 0.005,
    help: 'a foot stands when its ankle or toes are this close to the floor',
  },
  {
    name: 'speed',
    kind: 'number',
    label: 'Contact speed',
    unit: 'm/s',
    default: DEFAULT_CONTACT_SPEED,
    min: 0,
    minExclusive: true,
    max: MAX_CONTACT_SPEED,
    step: 0.05,
    help: 'and its ankle moves slower than this (horizontally)',
  },
  {
    name: 'min-contact',
    kind: 'number',
    label: 'Shortest contact',
    unit: 's',
    default: DEFAULT_MIN_CONTACT,
    min: 0,
    max: Infinity,
    step: 0.05,
    help: 'shorter contacts are ignored',
  },
  {
    name: 'blend',
    kind: 'number',
    label: 'Blend',
    unit: 's',
    default: DEFAULT_PIN_BLEND,
    min: 0,
    max: MAX_PIN_BLEND,
    step: 0.05,
    help: 'fade in and out of each hold',
  },
];

/** The fix-it edit the compatibility check offers (shared/vrma/compat.ts). */
const BAKE_INTERMEDIATE: EditDefinition = {
  id: 'bake-intermediate',
  label: 'Bake intermediate nodes',
  summary: 'Fold the animation of non-humanoid nodes between the bones into the bones, so every player shows the same motion',
  description: [
    'Some files animate nodes that are not humanoid bones but sit between them (rigs exported as they are).',
    "three-vrm-animation ignores those tracks, Blender's VRM add-on applies them, so the two show different",
    'motions. This folds each such track into the bone below it (its world rotation kept at every key) and',
    'drops the intermediate tracks.',
  ],
  params: [],
  unavailable: (m) => (animatedIntermediateNodes(m).length ? null : 'noIntermediate'),
  apply: (input) => bakeIntermediateNodes(input.motion),
  report: (input, out) => {
    const nodes = animatedIntermediateNodes(input.motion).length;
    const before = playerPoseGap(input.motion).angle;
    const after = playerPoseGap(out).angle;
    const deg = (x: number) => `${((x * 180) / Math.PI).toFixed(3)}°`;
    return [{
      cli: `${nodes} intermediate node(s) folded into the bones; three-vrm vs Blender pose ${deg(before)} -> ${deg(after)} apart`,
      figures: [figure('intermediateBaked', { count: count(nodes), before: rad(before), after: rad(after) })],
    }];
  },
};

export const EDITS: readonly EditDefinition[] = [
  {
    id: 'keep',
    label: 'Keep range',
    summary: 'Keep only the time range [from, to] (times then start at 0)',
    description: ['Keeps [from, to] of IN, with interpolated keys at both ends, and shifts it to start at 0.'],
    range: 'required',
    params: [],
    apply: (input) => keepRange(input.motion, range(input).from, range(input).to),
    report: (input, out) => [{ figures: [figure('kept', { kept: sec(durationOf(out)), total: sec(durationOf(input.motion)) })] }],
    markerTime: (input) => (t) => (t >= range(input).from && t <= range(input).to ? t - range(input).from : null),
  },
  {
    id: 'delete',
    label: 'Delete range',
    summary: 'Cut the time range [from, to] out and crossfade the joint',
    description: [
      'Removes [from, to] from IN. The parts before and after are joined with a crossfade of --blend seconds,',
      'so the motion gets (to - from) + blend shorter and has no jump at the joint.',
    ],
    range: 'required',
    params: [
      {
        name: 'blend',
        kind: 'number',
        label: 'Blend',
        unit: 's',
        default: DEFAULT_DELETE_BLEND,
        min: 0,
        max: Infinity,
        step: 0.05,
        help: 'crossfade length at the joint',
        limit: 'shortened to the parts around the cut',
      },
    ],
    apply: (input, p) => deleteRange(input.motion, range(input).from, range(input).to, num(p, 'blend')),
    markerTime: (input, _p, out) => partTime(input, out, () => null),
    report: (input, out, p) => {
      const blend = deleteBlend(input.motion, range(input).from, range(input).to, num(p, 'blend'));
      return [
        {
          cli: `${durationChange(input.motion, out)} (crossfade ${seconds(blend)})`,
          figures: [figure('deleted', { cut: sec(range(input).to - range(input).from), blend: sec(blend) }), durationFigure(input.motion, out)],
        },
      ];
    },
  },
  {
    id: 'speed',
    label: 'Speed',
    summary: 'Change the playback speed (times divided by the factor)',
    description: [
      'Divides every key time by F: 2 plays twice as fast (half the duration), 0.5 half as fast.',
      'With --from/--to only that part changes speed; what follows moves in time and is otherwise unchanged.',
    ],
    range: 'optional',
    params: [
      {
        name: 'factor',
        kind: 'number',
        label: 'Factor',
        unit: '',
        suggested: 1.5,
        min: MIN_SPEED_FACTOR,
        max: MAX_SPEED_FACTOR,
        step: 0.001,
        help: 'speed factor: 2 plays twice as fast',
      },
    ],
    unavailable: singleFrame,
    apply: (input, p) => onRange(input, 'segment', (m) => changeSpeed(m, num(p, 'factor'))),
    markerTime: (input, p, out) => partTime(input, out, (t, from) => from + (t - from) / num(p, 'factor')),
    report: (input, out, p) => [{ cli: durationChange(input.motion, out), figures: [figure('speed', { factor: factor(num(p, 'factor')) }), durationFigure(input.motion, out)] }],
  },
  {
    id: 'reverse',
    label: 'Reverse',
    summary: 'Play the motion backwards',
    description: ['Time t becomes duration - t on every track (with --from/--to: that part played backwards, blended in at its borders).'],
    range: 'optional',
    params: [],
    unavailable: singleFrame,
    apply: (input) => onRange(input, 'part', reverse),
    markerTime: (input, _p, out) => partTime(input, out, (t, from, to) => from + to - t),
  },
  {
    id: 'mirror',
    label: 'Mirror',
    summary: "Swap the avatar's left and right",
    description: [
      "Mirrors the motion across the avatar's middle plane: each bone's normalized rotation goes mirrored onto",
      'the opposite bone, the hips position has x negated, left/right expressions swap, the gaze is mirrored.',
    ],
    range: 'optional',
    params: [],
    apply: (input) => onRange(input, 'blend', mirror),
  },
  {
    id: 'in-place',
    label: 'In place',
    summary: 'Remove the hips travel (x and z fixed, height kept)',
    description: ['Fixes the hips world x and z to their first value (of the range, with --from/--to); height and rotations are unchanged.'],
    range: 'optional',
    params: [],
    unavailable: (m) => (hasHipsTravel(m) ? null : 'noHipsTravel'),
    apply: (input) => onRange(input, 'part', inPlace),
    report: (input, out) =>
      hasHipsTravel(input.motion)
        ? [{ figures: [figure('hipsTravel', { before: metres(hipsTravel(input.motion, input.range)), after: metres(hipsTravel(out, input.range)) })] }]
        : [{ cli: 'the motion has no hips translation: nothing to change', figures: [figure('noHipsTravel')] }],
  },
  {
    id: 'smooth',
    label: 'Smooth',
    summary: 'Smooth bone tracks with a Gaussian window in time',
    description: ['Averages each bone rotation (and the hips position) over a Gaussian window; expressions and gaze stay sharp.'],
    range: 'optional',
    params: [
      {
        name: 'sigma',
        kind: 'number',
        label: 'Sigma',
        unit: 's',
        default: DEFAULT_SIGMA,
        min: 0,
        max: MAX_SIGMA,
        step: 0.005,
        help: 'window width (standard deviation)',
      },
    ],
    unavailable: singleFrame,
    long: true,
    apply: (input, p, progress) => onRange(input, 'blend', (m) => smooth(m, num(p, 'sigma'), input.range, progress)),
    report: (input, out, p) => {
      const changed = out.channels.filter((c, i) => c !== input.motion.channels[i]).length;
      const err = maxPoseError(input.motion, out);
      return [{ figures: [figure('smoothed', { count: count(changed), sigma: sec(num(p, 'sigma')) }), figure('largestChange', { rotation: rad(err.rotation), position: mm(err.position) })] }];
    },
  },
  {
    id: 'loop',
    label: 'Loop',
    summary: 'Blend the end into the start so the motion loops without a jump',
    description: [
      'Crossfades the last --blend seconds into the start and shortens the clip by that much, so the last pose',
      'is the first pose. The hips position is not blended (the travel is kept).',
    ],
    params: [
      {
        name: 'blend',
        kind: 'number',
        label: 'Blend',
        unit: 's',
        default: DEFAULT_LOOP_BLEND,
        min: 0,
        minExclusive: true,
        max: Infinity,
        step: 0.05,
        help: 'crossfade length',
        limit: 'at most half the motion',
      },
    ],
    unavailable: singleFrame,
    apply: (input, p) => loopSeam(input.motion, num(p, 'blend')),
    markerTime: (_input, _p, out) => (t) => (t <= durationOf(out) ? t : null),
    report: (input, out) => {
      const [before, after] = [motionSeam(input.motion), motionSeam(out)];
      return [
        { cli: durationChange(input.motion, out), figures: [durationFigure(input.motion, out)] },
        {
          cli: `seam (largest bone angle between last and first pose) ${before.toFixed(4)} rad -> ${after.toExponential(2)} rad`,
          figures: [figure('seam', { before: rad(before), after: rad(after) })],
        },
      ];
    },
  },
  {
    id: 'strip',
    label: 'Strip',
    summary: 'Drop finger tracks and/or the hips translation',
    description: [
      'Removes the chosen tracks; every other track is kept as it is. Choose at least one.',
      'With --from/--to the tracks go to their rest value inside the range only (blended at its borders).',
    ],
    range: 'optional',
    params: [
      { name: 'fingers', kind: 'boolean', label: 'Fingers', default: false, help: 'drop every finger bone track' },
      { name: 'hips-translation', kind: 'boolean', label: 'Hips translation', default: false, help: 'drop the hips position track' },
    ],
    apply: (input, p) => onRange(input, 'blend', (m) => strip(m, { fingers: p.fingers === true, hipsTranslation: p['hips-translation'] === true })),
    report: (input, out) => {
      const dropped = input.motion.channels.length - out.channels.length;
      return [{ cli: `dropped ${dropped} track(s)`, figures: [figure('tracksDropped', { count: count(dropped) })] }];
    },
  },
  {
    id: 'optimize',
    label: 'Optimize',
    summary: 'Drop keys that interpolation reproduces within a tolerance',
    description: [
      'Per track, the fewest keys (a near-optimal search, or Douglas-Peucker where that keeps fewer) such that',
      'the pose at every source key stays within the tolerance. The measured maximum is printed. With --quantize',
      'rotations are written as 16-bit integers (a smaller file); the rounding counts inside the tolerance.',
      'With --from/--to only the keys inside the range are reduced.',
    ],
    range: 'optional',
    params: [
      {
        name: 'rot-tol',
        kind: 'number',
        label: 'Rotation tolerance',
        unit: 'rad',
        default: DEFAULT_ROTATION_TOLERANCE,
        min: 0,
        max: MAX_ROTATION_TOLERANCE,
        step: 0.001,
        help: 'largest rotation error',
      },
      {
        name: 'pos-tol',
        kind: 'number',
        label: 'Position tolerance',
        unit: 'm',
        default: DEFAULT_POSITION_TOLERANCE,
        min: 0,
        max: MAX_POSITION_TOLERANCE,
        step: 0.0005,
        help: 'largest position error',
      },
      {
        name: 'quantize',
        kind: 'boolean',
        label: 'Smaller file',
        default: false,
        help: 'write rotations as 16-bit integers (about 40% smaller; three-vrm-animation reads it, see docs/quantized-vrma.md)',
      },
      {
        name: 'fast',
        kind: 'boolean',
        label: 'Fast',
        default: false,
        help: 'Douglas-Peucker only: faster, ~10-20% more keys',
      },
    ],
    unavailable: singleFrame,
    long: true,
    apply: (input, p, progress) =>
      onRange(input, 'exact', (m) =>
        optimize(m, {
          rotationTolerance: num(p, 'rot-tol'),
          positionTolerance: num(p, 'pos-tol'),
          quantize: p.quantize === true,
          method: p.fast === true ? 'fast' : 'fewest',
        }, progress)),
    report: (input, out, p) => {
      const before = keyCount(input.motion);
      const after = keyCount(out);
      const err = optimizeError(input.motion, out, p);
      return [
        {
          cli: `keys ${before} -> ${after} (${((100 * after) / Math.max(1, before)).toFixed(1)}%)`,
          figures: [figure('keys', { before: count(before), after: count(after), share: ratio(after / Math.max(1, before)) })],
        },
        // The CLI prints the error with measure (below); the studio shows it in the same report.
        { figures: [figure('maxError', { rotation: rad(err.rotation), position: mm(err.position) })] },
      ];
    },
    measure: (input, out, p) => {
      const err = optimizeError(input.motion, out, p);
      return [`measured maximum error at every source key: rotation ${err.rotation.toFixed(5)} rad, position ${(err.position * 1000).toFixed(3)} mm`];
    },
    write: (p) => ({ quantize: p.quantize === true }),
  },
  {
    id: 'fix',
    label: 'Fix outliers',
    summary: 'Drop outlier frames at the start or end (e.g. a rest-pose frame 0)',
    description: [
      'Frames at either end whose summed rotation change to their neighbour exceeds median x 6 + 0.3 rad are',
      'dropped (at most 5 per end) and the times shifted to start at 0. With --from/--to the ends of that part are',
      'checked and cut; what follows moves earlier.',
    ],
    range: 'optional',
    params: [],
    unavailable: (m) => singleFrame(m) ?? (outliersPending(m) ? 'measuring' : hasOutliers(m) ? null : 'noOutliers'),
    apply: (input) => onRange(input, 'segment', fixOutliers),
    markerTime: (input, _p, out) => {
      if (input.range) return partTime(input, out, (t, from, to) => Math.min(Math.max(t, from), to + durationOf(out) - durationOf(input.motion)));
      const found = findOutlierFrames(input.motion);
      const start = found ? found.frames[found.first] : 0;
      return (t) => (t - start >= 0 && t - start <= durationOf(out) ? t - start : null);
    },
    report: (input) => {
      const found = findOutlierFrames(input.motion);
      const atStart = found ? found.first : 0;
      const atEnd = found ? found.frames.length - 1 - found.last : 0;
      return [{ cli: `dropped ${atStart} frame(s) at the start, ${atEnd} at the end`, figures: [figure('framesDropped', { start: count(atStart), end: count(atEnd) })] }];
    },
  },
  {
    id: 'join',
    label: 'Join',
    summary: 'Append motion B after motion A with a crossfade',
    description: [
      "B is re-expressed on A's skeleton (bones by humanoid name, rotations through the normalized pose, hips",
      'scaled by the hips heights and continuing from where A is), then crossfaded in over --blend seconds.',
      "B's expressions and gaze continue on A's of the same name (added to A when it has none).",
    ],
    other: true,
    params: [
      { name: 'blend', kind: 'number', label: 'Blend', unit: 's', default: DEFAULT_JOIN_BLEND, min: 0, max: Infinity, step: 0.05, help: 'crossfade length' },
      { name: 'fix', kind: 'boolean', label: 'Fix outliers first', default: true, help: 'drop outlier frames at the ends of both motions first' },
    ],
    apply: (input, p) => {
      const out = join(input.motion, input.other!, { blend: num(p, 'blend'), fixOutliers: p.fix === true });
      // A marker at the boundary, named after the joined part (its animation's name).
      const second = p.fix === true ? fixOutliers(input.other!) : input.other!;
      const boundary = Math.max(0, durationOf(out) - durationOf(second));
      return withMarkers(out, [...markersOf(out), { time: boundary, name: input.other!.animationName ?? 'part 2', kind: 'join' }]);
    },
    report: (input, out, p) => [
      { cli: durationChange(input.motion, out), figures: [figure('joined', { added: sec(durationOf(input.other!)), blend: sec(num(p, 'blend')) }), durationFigure(input.motion, out)] },
    ],
  },
  {
    id: 'resample',
    label: 'Resample',
    summary: 'Resample every track at N keys per second',
    description: [
      'Samples every track on the grid 0, 1/N, 2/N, ... (plus the last time when it is off the grid).',
      'With --from/--to only the keys inside the range are replaced by the grid.',
    ],
    range: 'optional',
    params: [
      { name: 'fps', kind: 'number', label: 'Frame rate', unit: 'fps', suggested: 30, min: MIN_RESAMPLE_FPS, max: MAX_RESAMPLE_FPS, step: 1, help: 'keys per second' },
    ],
    unavailable: singleFrame,
    apply: (input, p) => onRange(input, 'exact', (m) => resample(m, num(p, 'fps'))),
    report: (
      input,
      out,
      p,
    ) => [{
      figures: [
        figure('resampled', { fps: fps(num(p, 'fps')) }),
        figure('keys', { before: count(keyCount(input.motion)), after: count(keyCount(out)), share: ratio(keyCount(out) / Math.max(1, keyCount(input.motion))) }),
      ],
    }],
  },
  {
    id: 'pin-feet',
    label: 'Pin feet',
    summary: 'Hold planted feet still (foot contacts found in the motion, leg IK)',
    description: [
      "Finds where each foot stands: ankle or toes within --height of the floor (the motion's lowest standing)",
      'and the ankle slower than --speed, for at least --min-contact seconds. During each contact the ankle is',
      'held where the contact started (legs solved by two-bone IK, knees kept bending the way they bend, the',
      'hips lowered where a leg cannot reach), faded in and out over --blend seconds; the swing is left alone.',
    ],
    params: CONTACT_PARAMS,
    unavailable: (m) => singleFrame(m) ?? (canPinFeet(m) ? null : 'noLegs'),
    long: true,
    apply: (input, p, progress) => {
      const r = pinFeetDetailed(input.motion, pinParams(p), progress);
      pinResults.set(r.motion, r);
      return r.motion;
    },
    report: (input, out, p) => {
      const r = pinFeetOf(input, out, p);
      const figures: EditFigure[] = [figure('contactsHeld', { count: count(r.detection.contacts.length) })];
      if (r.maxHipsDrop > 0) figures.push(figure('hipsLowered', { drop: cm(r.maxHipsDrop) }));
      return [{ cli: `${r.detection.contacts.length} foot contact(s) held${r.maxHipsDrop > 0 ? `, hips lowered by up to ${cmText(r.maxHipsDrop)}` : ''}`, figures }];
    },
    measure: (input, out, p) => {
      const r = pinFeetOf(input, out, p);
      const a = measureContacts(input.motion, r.detection);
      const b = measureContacts(out, r.detection);
      return [
        `planted-foot drift: median ${cmText(a.medianDrift)} -> ${cmText(b.medianDrift)}, worst ${cmText(a.worstDrift)} -> ${cmText(b.worstDrift)}; deepest below the floor ${
          cmText(a.worstDepth)
        } -> ${cmText(b.worstDepth)}`,
        `knee steps over 10 degrees the source did not have: ${newKneeJumps(input.motion, out, r.detection.times)}`,
      ];
    },
  },
  {
    id: 'pin',
    label: 'Pin hand/foot',
    summary: 'Hold a hand or foot where it is at the range start, for the whole range',
    description: [
      'Each chosen hand or foot stays at its world position at --from until --to (e.g. a hand on a table),',
      'solved per frame by two-bone IK (elbow/knee kept in its bend plane, the hand/foot turning as before),',
      'faded in before and out after the range over --blend seconds. Choose at least one.',
    ],
    range: 'required',
    params: [
      { name: 'left-hand', kind: 'boolean', label: 'Left hand', default: false, help: 'pin the left hand' },
      { name: 'right-hand', kind: 'boolean', label: 'Right hand', default: false, help: 'pin the right hand' },
      { name: 'left-foot', kind: 'boolean', label: 'Left foot', default: false, help: 'pin the left foot' },
      { name: 'right-foot', kind: 'boolean', label: 'Right foot', default: false, help: 'pin the right foot' },
      {
        name: 'blend',
        kind: 'number',
        label: 'Blend',
        unit: 's',
        default: DEFAULT_PIN_RANGE_BLEND,
        min: 0,
        max: MAX_PIN_RANGE_BLEND,
        step: 0.05,
        help: 'fade in before and out after the range',
      },
    ],
    apply: (input, p) => {
      const limbs: Limb[] = [];
      if (p['left-hand'] === true) limbs.push('leftArm');
      if (p['right-hand'] === true) limbs.push('rightArm');
      if (p['left-foot'] === true) limbs.push('leftLeg');
      if (p['right-foot'] === true) limbs.push('rightLeg');
      return pinRange(input.motion, range(input).from, range(input).to, { limbs, blend: num(p, 'blend') });
    },
    report: (input, _out, p) => {
      const limbs = ['left-hand', 'right-hand', 'left-foot', 'right-foot'].filter((k) => p[k] === true).length;
      return [{ figures: [figure('pinned', { count: count(limbs), from: sec(range(input).from), to: sec(range(input).to) })] }];
    },
  },
  {
    id: 'fit',
    label: 'Fit to this avatar',
    summary: "Bake the motion for an avatar's proportions: feet planted and above the floor there",
    description: [
      "Re-expresses the motion on the avatar's rest skeleton (read from the .vrm, VRM 0.x or 1.0), scales the",
      'hips path by leg length or hips height, whichever slides the planted feet less there (three-vrm-animation',
      "always scales it by hips height, which slides feet when the legs are a different part of the height), pins the source's foot contacts (as pin-feet finds them) on the avatar's",
      'own legs and lifts any foot that would go under the floor. The output is a normal .vrma; played on this',
      'avatar the feet stay planted.',
    ],
    avatar: true,
    params: CONTACT_PARAMS,
    unavailable: (m) => (canPinFeet(m) ? null : 'noLegs'),
    long: true,
    apply: (input, p, progress) => {
      const r = fitDetailed(input.motion, input.avatar!, pinParams(p), progress);
      fitResults.set(r.motion, r);
      return r.motion;
    },
    report: (input, out, p) => {
      const r = fitResults.get(out) ?? fitDetailed(input.motion, input.avatar!, pinParams(p));
      const scales = { legs: factor(r.legScale), height: factor(r.heightScale) };
      return [
        {
          cli: r.hipsScaling === 'legs'
            ? `hips path scaled by leg length x${r.legScale.toFixed(3)} (a player would scale by hips height x${r.heightScale.toFixed(3)}); ${r.detection.contacts.length} foot contact(s) pinned`
            : `hips path scaled by hips height x${r.heightScale.toFixed(3)} (closer here than leg length x${r.legScale.toFixed(3)}); ${r.detection.contacts.length} foot contact(s) pinned`,
          figures: [figure(r.hipsScaling === 'legs' ? 'scaledByLegs' : 'scaledByHeight', scales), figure('contactsPinned', { count: count(r.detection.contacts.length) })],
        },
      ];
    },
    measure: (input, out, p) => {
      const r = fitResults.get(out) ?? fitDetailed(input.motion, input.avatar!, pinParams(p));
      const a = measureContacts(r.played, r.detection);
      const b = measureContacts(out, r.detection);
      return [
        `on the avatar's skeleton, planted-foot drift: median ${cmText(a.medianDrift)} -> ${cmText(b.medianDrift)}, worst ${cmText(a.worstDrift)} -> ${cmText(b.worstDrift)}; deepest below the floor ${
          cmText(a.worstDepth)
        } -> ${cmText(b.worstDepth)}`,
      ];
    },
  },
  BAKE_INTERMEDIATE,
];

export function editById(id: string): EditDefinition | undefined {
  return EDITS.find((e) => e.id === id);
}

/** A number as help texts show it (6 significant digits: π is 3.14159). */
export function formatNumber(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(6))) : String(x);
}

const withUnit = (x: number, unit: ParamUnit) => (unit === '' ? formatNumber(x) : `${formatNumber(x)} ${unit}`);

/** The accepted values in words: "0.001 to 1000", "0 s or more", "more than 0 s, at most half the motion". */
export function rangeText(p: NumberParam): string {
  const low = p.minExclusive ? `more than ${withUnit(p.min, p.unit)}` : `${withUnit(p.min, p.unit)} or more`;
  const base = Number.isFinite(p.max) ? (p.minExclusive ? `${low}, at most ${withUnit(p.max, p.unit)}` : `${withUnit(p.min, p.unit)} to ${withUnit(p.max, p.unit)}`) : low;
  return p.limit ? `${base}; ${p.limit}` : base;
}

/** Checks one number against its parameter's range: a BAD_PARAMETER MotionError naming it otherwise. */
export function checkParam(p: NumberParam, value: number): number {
  const unit = p.unit === '' ? '' : ` ${p.unit}`;
  if (Number.isFinite(p.max)) {
    requireInRange(p.name, value, p.min, p.max, unit);
    if (p.minExclusive && value === p.min) fail('BAD_PARAMETER', 'param.moreThan', { name: p.name, min: `${p.min}${unit}`, value: `${value}${unit}` });
  } else if (p.minExclusive) {
    requireFinite(p.name, value);
    if (!(value > p.min)) fail('BAD_PARAMETER', 'param.moreThan', { name: p.name, min: `${p.min}${unit}`, value: `${value}${unit}` });
  } else if (p.min === 0) {
    requireNonNegative(p.name, value);
  } else {
    requireFinite(p.name, value);
    if (value < p.min) fail('BAD_PARAMETER', 'param.atLeast', { name: p.name, min: `${p.min}${unit}`, value: `${value}${unit}` });
  }
  return value;
}

/**
 * Every parameter of `def` from `given` (missing ones take their default), each checked against its
 * range. A missing required number is a BAD_PARAMETER error; the CLI reports it as usage before this.
 */
export function resolveParams(def: EditDefinition, given: Readonly<Record<string, number | boolean | undefined>>): ParamValues {
  const out: Record<string, number | boolean> = {};
  for (const p of def.params) {
    const v = given[p.name];
    if (p.kind === 'boolean') {
      out[p.name] = v === undefined ? p.default : v === true;
      continue;
    }
    if (v === undefined && p.default === undefined) fail('BAD_PARAMETER', 'param.required', { edit: def.id, name: p.name });
    out[p.name] = checkParam(p, v === undefined ? p.default! : Number(v));
  }
  return out;
}

export interface EditOutcome {
  readonly motion: Motion;
  /** The CLI's English report lines. */
  readonly report: string[];
  /** The same report as figures, for the studio to word in the user's language (editReport.ts). */
  readonly figures: readonly EditFigure[];
  /** The parameters the edit ran with (defaults filled in). */
  readonly params: ParamValues;
  /**
   * Where a time of the input is in the output, for an edit that moves time (null: cut away); absent
   * when the edit keeps time. Markers follow it here; the studio's IN/OUT range follows it too.
   */
  readonly timeMap?: (t: number) => number | null;
}

/**
 * Checks the parameters and what the edit needs, runs it, and returns the result with its report.
 * With `progress`, the fraction done (the edit's own progress, then its report).
 */
export function runEdit(def: EditDefinition, input: EditInput, given: Readonly<Record<string, number | boolean | undefined>>, progress?: Progress): EditOutcome {
  if (def.range === 'required' && !input.range) fail('BAD_PARAMETER', 'edit.needsRange', { edit: def.id });
  if (def.other && !input.other) fail('BAD_PARAMETER', 'edit.needsOther', { edit: def.id });
  if (def.time && input.time === undefined) fail('BAD_PARAMETER', 'edit.needsTime', { edit: def.id });
  if (def.avatar && !input.avatar) fail('BAD_PARAMETER', 'edit.needsAvatar', { edit: def.id });
  const p = resolveParams(def, given);
  const edited = def.apply(input, p, phase(progress, 0, def.report ? 0.9 : 1));
  const timeMap = def.markerTime?.(input, p, edited);
  const motion = timeMap && markersOf(input.motion).length ? mapMarkers(input.motion, edited, timeMap) : edited;
  const lines = def.report?.(input, motion, p) ?? [];
  progress?.(1);
  return { motion, report: lines.flatMap((l) => (l.cli === undefined ? [] : [l.cli])), figures: lines.flatMap((l) => l.figures), params: p, timeMap };
}
