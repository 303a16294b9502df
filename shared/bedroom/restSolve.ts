/**
 * How a lying body settles onto the bed, from its skin: given the points of the body (bed frame,
 * each with the humanoid bone it hangs from) and the joints, find small turns that a soft body would
 * make lying there: it tilts at the hips until the back (with whatever is on it) and the pelvis lie
 * level, the neck bends so the head rests on the pillow, and a leg or arm that would go into the
 * mattress or the pillow is lifted out at the knee or shoulder. The caller applies the turns to the
 * skeleton and then rests the lowest point of the result on the bed. Pure math.
 */
import type { Vec3 } from '../motion/types';
import type { HumanBoneName } from '../vrm/humanBones';
import { Body, below, type RestInput } from './restBody';
import { balanceTurns } from './restBalance';

export type { RestInput } from './restBody';

/** One turn about a joint: `axis` (unit, bed frame) by `angle` radians, right-handed. */
export interface RestTurn {
  readonly bone: HumanBoneName;
  readonly axis: Vec3;
  readonly angle: number;
}

const DEG = Math.PI / 180;
const UP: Vec3 = [0, 1, 0];
/**
 * The largest turn each joint may make in one pass (a soft mattress, not a contortion); a later pass
 * may take back or add to it. The hips' and the shoulders' are their whole turn over all passes: the
 * hips took 12° a pass and, passing until settled, turned sphere.vrm's ball past its head-to-pillow
 * placement; the shoulders' fades out as the body rolls.
 */
export const TURN_LIMIT: Readonly<Partial<Record<HumanBoneName, number>>> = {
  // A big head on a pillow (a chibi on its side) needs the neck bent far.
  hips: 60 * DEG,
  neck: 50 * DEG,
  head: 30 * DEG,
  leftUpperArm: 60 * DEG,
  rightUpperArm: 60 * DEG,
  leftLowerArm: 60 * DEG,
  rightLowerArm: 60 * DEG,
  leftLowerLeg: 30 * DEG,
  rightLowerLeg: 30 * DEG,
  // Knees up (step 5 of settlePass): as far as someone lying on the back draws them.
  leftUpperLeg: 70 * DEG,
  rightUpperLeg: 70 * DEG,
  // Shoulders drawn up (step 1b of settlePass) where box arms would hold the back off the bed.
  leftShoulder: 50 * DEG,
  rightShoulder: 50 * DEG,
};

function horizontalUnit(v: Vec3): Vec3 | null {
  const n = Math.hypot(v[0], v[2]);
  return n > 1e-6 ? [v[0] / n, 0, v[2] / n] : null;
}

/**
 * The angle in [-limit, limit] nearest 0 where f crosses 0, by bisection (f is monotonic over such
 * small turns, away from a kink). The side is first guessed from the slope at 0; where that side
 * does not get there, the other is searched: a box's corner makes f kink at 0 (the lowest point
 * switching from one box to another), and its slope there can point away from the crossing (debug_robot
 * half rolled: the hips tilted 12° the wrong way each pass, the torso 15 cm up). `onlyUp` (a limb): acts
 * only when f < 0 and, when 0 is out of reach, takes the best angle on the way; otherwise, out of reach,
 * the angle nearest to it.
 */
function solveAngle(f: (a: number) => number, [lo, hi]: readonly [number, number], onlyUp: boolean): number {
  const f0 = f(0);
  if (Math.abs(f0) < 1e-4 || (onlyUp && f0 >= 0)) return 0;
  const step = 0.5 * DEG;
  const guess = (f(step) - f(-step)) * -f0 >= 0 ? 1 : -1;
  const end = (sign: number) => (sign > 0 ? hi : lo);
  let bracket: [number, number] | null = end(guess) !== 0 && f(end(guess)) * f0 <= 0 ? [0, end(guess)] : null;
  // Not on the guessed side: the nearest crossing on either, on a coarse grid.
  let best = 0;
  let bestF = f0;
  const better = (v: number) => (onlyUp ? v > bestF : Math.abs(v) < Math.abs(bestF));
  for (let k = 1; !bracket && k <= SCAN; k++) {
    for (const sign of [guess, -guess]) {
      if (end(sign) === 0) continue;
      const a = (end(sign) * k) / SCAN;
      const v = f(a);
      if (v * f0 <= 0) {
        bracket = [(end(sign) * (k - 1)) / SCAN, a];
        break;
      }
      if (better(v)) [best, bestF] = [a, v];
    }
  }
  if (!bracket) return best;
  let [near, far] = bracket;
  for (let k = 0; k < 12; k++) {
    const mid = (near + far) / 2;
    if (f(mid) * f0 > 0) near = mid;
    else far = mid;
  }
  return far;
}

/** Grid steps per side of solveAngle's search for a crossing its first guess missed. */
const SCAN = 8;

/**
 * Passes over the steps below until one moves no point of the body more than SETTLED_M (its rest on
 * the bed aside): a later turn (the neck, an arm) moves what an earlier one levelled. A fixed three
 * passes left debug_robot's back 1.2-2.6 cm up, still settling; a human-shaped body is settled after
 * two or three. Where two steps undo each other (a box shin lifted out of the bed at the knee, then
 * bent back to bring the foot down) the pass moves the body little and the passes stop there too.
 */
const MAX_PASSES = 8;
/** Metres: a pass that moved no point more than this changed nothing that shows. */
const SETTLED_M = 0.001;

/** The turns that settle the body, in the order found: hips (the whole body), neck, lower legs, arms; then again. */
export function restTurns(input: RestInput): RestTurn[] {
  const body = new Body(input);
  const turns: RestTurn[] = [];
  const before = new Float64Array(body.xyz.length);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    before.set(body.xyz);
    const lifted = body.lifted;
    settlePass(body, turns);
    if (body.movedSince(before, body.lifted - lifted) < SETTLED_M) break;
  }
  // What the joints could not rest within their limits, the whole body may (restBalance.ts). On the
  // back only rolled: tilted head end down it would leave the placement's line along the bed (sphere.vrm's
  // head joint came 4 cm nearer its feet along it, placement.test.ts).
  const axes = bodyAxes(body);
  const rolled = (input.roll ?? 1) > 0;
  if (axes) { for (const t of balanceTurns(body, rolled ? [axes.across, axes.long] : [axes.long])) turns.push({ bone: 'hips', ...t }); }
  return turns;
}

/** The body's length (hips to head) and across it, level, in the bed's frame; null when it stands upright. */
function bodyAxes(body: Body): { long: Vec3; across: Vec3 } | null {
  const j = body.joints;
  const head = j.head ?? j.neck;
  const long = j.hips && head ? horizontalUnit([head[0] - j.hips[0], 0, head[2] - j.hips[2]]) : null;
  // Across the body, level: turning about it lifts or lowers what lies toward the head.
  return long ? { long, across: [-long[2], 0, long[0]] } : null;
}

/** `f` is told the lowest gap of a set of points with the turn on trial (g), and says how far from done it is. */
type Goal = (g: (idx: readonly number[]) => number) => number;

interface TurnSpec {
  readonly bone: HumanBoneName;
  readonly pivot: Vec3;
  readonly axis: Vec3;
  /** Radians either way; with `kind`, over all passes (Body.used). */
  readonly limit: number;
  readonly onlyUp: boolean;
  readonly kind?: string;
}

/** Find the angle of one turn that meets `f` (solveAngle) and put it on the body; the angle, 0 for none. */
function turnTo(body: Body, turns: RestTurn[], t: TurnSpec, f: Goal): number {
  const key = t.kind ? `${t.bone} ${t.kind}` : '';
  const used = (key && body.used.get(key)) || 0;
  const trial = (a: number) => f((idx) => body.gap(idx, t.bone, t.pivot, t.axis, a));
  const angle = solveAngle(trial, [Math.min(0, -t.limit - used), Math.max(0, t.limit - used)], t.onlyUp);
  if (angle === 0) return 0;
  if (key) body.used.set(key, used + angle);
  body.turn(t.bone, t.pivot, t.axis, angle);
  turns.push({ bone: t.bone, axis: t.axis, angle });
  return angle;
}

function settlePass(body: Body, turns: RestTurn[]): void {
  const j = body.joints;
  const axes = bodyAxes(body);
  const long = axes?.long ?? null;
  const across = axes?.across ?? null;
  const apply = (bone: HumanBoneName, pivot: Vec3, axis: Vec3, f: Goal, limit: number, onlyUp: boolean, kind = '') => turnTo(body, turns, { bone, pivot, axis, limit, onlyUp, kind }, f);
  const { pelvis, back, head: headPts } = body.supports();
  const roll = body.input.roll ?? 1;
  const armsCarry = roll > 0;
  if (!pelvis.length || !j.hips || !across) return;
  // 1. The body tilts at the hips until the back and the pelvis lie level (a backpack tilts it).
  if (back.length) {
    const pivot = j.hips;
    apply('hips', pivot, across, (g) => g(back) - g(pelvis), TURN_LIMIT.hips ?? 0, false, 'level');
  }
  // 1b. Lying on the back the arms lie beside the torso and do not carry it: where an upper arm holds
  // the back off the bed (a robot's box arms, thicker than its back is deep below the shoulder), the
  // shoulder draws it up, turning about the body's length, until the arm no longer comes below the back.
  const torso = armsCarry ? body.select((b) => below(b, 'spine') && !below(b, 'neck') && !below(b, 'leftUpperArm') && !below(b, 'rightUpperArm')) : back;
  if (roll < SHRUG_FADE && torso.length) {
    for (const side of ['left', 'right'] as const) {
      const pivot = j[`${side}Shoulder`];
      const arm = body.select((b) => below(b, `${side}UpperArm`));
      if (!pivot || !arm.length) continue;
      const rest = body.gap(torso);
      if (body.gap(arm) >= rest - KNEES_UP_FROM) continue;
      const limit = (TURN_LIMIT[`${side}Shoulder`] ?? 0) * Math.max(0, 1 - roll / SHRUG_FADE);
      apply(`${side}Shoulder`, pivot, long!, (g) => g(arm) - rest, limit, true, 'shrug');
    }
  }
  // 2. Pelvis and back rest on the bed.
  body.lift(-body.gap([...pelvis, ...back]));
  // 3. The head rests on what is under it (the pillow): bend at the neck, the neck's own skin going
  // no lower than the bed (a robot's neck box on its side came 1 cm below the head and torso); then,
  // where the neck met the bed first, nod at the head so the head rests too.
  const neckPts = body.select((b) => b === 'neck');
  if (j.neck && headPts.length) {
    const pivot = j.neck;
    const both = [...headPts, ...neckPts];
    apply('neck', pivot, across, (g) => g(both), TURN_LIMIT.neck ?? 0, false);
    const nod = body.joints.head;
    if (nod && neckPts.length && body.gap(headPts) > NOD_FROM) apply('head', nod, across, (g) => g(headPts), TURN_LIMIT.head ?? 0, false);
  }
  // 4. Legs and arms only come out of the bed: lifted about a level axis across their own direction.
  // (An arm still in after the shoulder's turn is lifted at the elbow too.)
  const tips: Record<string, HumanBoneName> = {
    leftLowerLeg: 'leftFoot',
    rightLowerLeg: 'rightFoot',
    leftUpperArm: 'leftHand',
    rightUpperArm: 'rightHand',
    leftLowerArm: 'leftHand',
    rightLowerArm: 'rightHand',
  };
  for (const root of ['leftLowerLeg', 'rightLowerLeg', 'leftUpperArm', 'rightUpperArm', 'leftLowerArm', 'rightLowerArm'] as const) {
    const pivot = j[root];
    const tip = j[tips[root]];
    const dir = pivot && tip ? horizontalUnit([tip[0] - pivot[0], 0, tip[2] - pivot[2]]) : null;
    // An arm turned at the shoulder is judged by its forearm and hand (the upper arm rests with the back).
    const from = root.endsWith('UpperArm') ? (root.replace('Upper', 'Lower') as HumanBoneName) : root;
    const pts = body.select((b) => below(b, from));
    if (!pivot || !pts.length) continue;
    const axis: Vec3 = dir ? [-dir[2], 0, dir[0]] : across;
    apply(root, pivot, axis, (g) => g(pts), TURN_LIMIT[root] ?? 0, true);
    // An arm still in (one lying forward through the pillow's edge) swings about the vertical, off it.
    if (root.endsWith('UpperArm') && body.gap(pts) < 0) {
      apply(root, pivot, UP, (g) => g(pts), TURN_LIMIT[root] ?? 0, true);
    }
  }
  // 5. Knees up where the lower legs hold the pelvis off the bed (shins thicker than the hips, as a
  // robot's boxes are: no turn at the knee lifts a box whose corner sits below its pivot). The thigh
  // lifts at the hip until the lower leg no longer comes below the pelvis; then, in this pass and the
  // next, the knee bends (toward the buttock: the way that lowers the foot) until the foot rests.
  for (const side of ['left', 'right'] as const) {
    const hip = j[`${side}UpperLeg`] ?? j.hips;
    const knee = j[`${side}LowerLeg`];
    const leg = body.select((b) => below(b, `${side}LowerLeg`));
    const feet = body.select((b) => below(b, `${side}Foot`));
    if (!knee || !leg.length || !hip) continue;
    const dir = horizontalUnit([knee[0] - hip[0], 0, knee[2] - hip[2]]);
    if (!dir) continue;
    const axis: Vec3 = [-dir[2], 0, dir[0]];
    const rest = body.gap([...pelvis, ...back].filter((i) => !below(body.bone[i], `${side}UpperLeg`)));
    if (body.gap(leg) < rest - KNEES_UP_FROM) {
      apply(`${side}UpperLeg`, hip, axis, (g) => g(leg) - rest, TURN_LIMIT[`${side}UpperLeg`] ?? 0, true);
      body.kneesUp.add(side);
    }
    const k = body.joints[`${side}LowerLeg`];
    if (!body.kneesUp.has(side) || !k || !feet.length || body.gap(feet) - rest < KNEES_UP_FROM) continue;
    apply(`${side}LowerLeg`, k, axis, (g) => g(feet) - rest, KNEE_BEND_LIMIT, false);
  }
}

/**
 * How far (metres) the lower legs (or box arms) may hold the pelvis (or back) off the bed before the
 * knees come up (the shoulders draw up): half the float limit (contactFigures.ts), so that what is left
 * after the passes stays under it (at the whole limit debug_robot's foot held it at 1.0 cm).
 */
const KNEES_UP_FROM = 0.005;
/**
 * The share of a turn-over over which drawn-up shoulders let go: rolling, the arm the body turns onto
 * goes under it and carries it, and must not be drawn up (cryptovoxels' side floated 1.7 cm when the
 * shoulders kept drawing up through the whole roll).
 */
const SHRUG_FADE = 0.2;
/** How far (metres) the head may stay above the pillow, its neck resting, before it nods down (below the float limit). */
const NOD_FROM = 0.002;
/** How far the knee may bend to bring a lifted leg's foot down to the mattress. */
const KNEE_BEND_LIMIT = 110 * DEG;
