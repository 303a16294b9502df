/**
 * Fit a motion to an avatar (`vrma-studio fit IN --avatar AVATAR.vrm`, the studio's "Fit to this
 * avatar"): bake it for that avatar's proportions so that, played there by three-vrm-animation, the
 * planted feet stay planted and no foot goes under the floor. The output is a normal .vrma (it plays
 * on any avatar; on this one it is exact).
 *
 * 1. The motion is re-expressed on the avatar's own rest skeleton (shared/avatar/avatarSkeleton.ts):
 *    normalized rotations as they are (that is what three-vrm-animation hands any avatar), bones the
 *    avatar lacks left out (three-vrm-animation ignores them there too), and the rest hips height the
 *    avatar's, so the player's hips scale is 1 on this avatar.
 * 2. The hips path (horizontal travel and the vertical movement about the rest height) is scaled by
 *    the ratio of leg lengths (thigh + shin) or of hips heights, whichever is closer: three-vrm-animation
 *    scales the hips translation by the ratio of hips heights, which makes feet slide wherever the legs
 *    are a larger or smaller part of the height than in the capture (strides are made by legs), so leg
 *    length is usually closer. "Closer" is measured, not assumed: the ratio under which the source's
 *    planted feet slide least on the avatar before any pinning, i.e. the smaller sum over the source's
 *    contacts of the planted-foot drift (largest horizontal ankle distance from the contact's start,
 *    measurePoses) of the rescaled motion's FK on the avatar; a tie keeps leg length. Less slide before
 *    pinning means the pins in step 3 bend the legs less away from the source's own pose.
 * 3. The source's foot contacts (found on the source's own skeleton, pinFeet.ts) are pinned on the
 *    avatar's legs: each ankle held where the avatar's ankle is at the contact's start, hips lowered
 *    where a leg cannot reach. Held steady: where the source's leg jumps for a few frames inside a
 *    contact as a whole (a capture glitch: hips and foot pop together, the knee angle unchanged), the
 *    held foot would turn that pop into a knee step, so the held ankle's height follows the leg's
 *    stretch with such spikes removed (steadyStretch).
 * 4. Floor: wherever an ankle or toe would still be below its rest height (the avatar stands on the
 *    floor in its rest pose), that leg lifts the foot back up (smoothly, by leg IK).
 */
import type { Motion, Vec3 } from '../motion/types';
import { boneChannel, findChannel } from '../motion/types';
import { fail } from '../errors';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import type { AvatarSkeleton } from '../avatar/avatarSkeleton';
import { buildMotion, type KeyTrack } from '../vrma/buildMotion';
import { length3, sub3 } from '../math/vec3';
import { LIMB_BONES, pinLimbs, widenAndSmooth, type LimbPin } from '../ik/pinLimbs';
import { hipsToWorld, rotationsToNormalized } from '../vrma/normalizedTracks';
import { canPinFeet, DEFAULT_MIN_CONTACT, DEFAULT_PIN_BLEND, LEG_POSE_BONES, MAX_PIN_BLEND, detectFootContacts, footPins, posesAt, type ContactDetection, type PinFeetParams } from './pinFeet';
import { measurePoses } from './contactReport';
import type { SkeletonPose } from '../vrma/fk';
import { requireNonNegative } from './params';
import { phase, type Progress } from './progress';

/** Thigh + shin, averaged over both legs, from world rest positions. */
function legLength(pos: (b: HumanBoneName) => Vec3 | undefined): number {
  let sum = 0;
  let n = 0;
  for (const limb of ['leftLeg', 'rightLeg'] as const) {
    const [u, l, e] = LIMB_BONES[limb].map(pos);
    if (!u || !l || !e) continue;
    sum += length3(sub3(l, u)) + length3(sub3(e, l));
    n++;
  }
  return n ? sum / n : 0;
}

export interface FitResult {
  readonly motion: Motion;
  /** The motion on the avatar's skeleton before pinning (what step 1-2 gives). */
  readonly rescaled: Motion;
  /** The source as three-vrm-animation plays it on the avatar (hips scaled by hips height): the "before". */
  readonly played: Motion;
  /** Contacts found on the source, on the source's frame grid. */
  readonly detection: ContactDetection;
  /** Leg-length ratio avatar / source, and the hips-height ratio (what a player uses). */
  readonly legScale: number;
  readonly heightScale: number;
  /** Which of the two the hips path was scaled by (the closer, step 2), and its value. */
  readonly hipsScaling: 'legs' | 'height';
  readonly hipsScale: number;
  /** Sum over the source's contacts of the planted-foot drift (m) before pinning, under each ratio. */
  readonly slide: { readonly legs: number; readonly height: number };
}

/** The motion's bone rotations as the avatar's normalized rotations: the same for every hips scaling. */
function avatarRotations(motion: Motion, avatar: AvatarSkeleton): Partial<Record<HumanBoneName, KeyTrack>> {
  const present = new Set(Object.keys(avatar.positions));
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const c of motion.channels) {
    const bone = motion.humanoid.nodeToBone.get(c.node);
    const rest = bone && motion.rest.bones[bone];
    if (!bone || !rest || c.path !== 'rotation' || !present.has(bone)) continue;
    rotations[bone] = { times: c.times, values: Float32Array.from(rotationsToNormalized(c.values, rest)) };
  }
  return rotations;
}

/**
 * The motion on the avatar's rest skeleton (step 1), hips path about the rest scaled by leg length
 * ('legs') or hips height ('height') (step 2); with 'player', the whole hips position scaled the way
 * three-vrm-animation scales it (the hips-height ratio): what the avatar shows of the source without fitting.
 * `rotations` (avatarRotations) when the caller has them for another scaling.
 */
export function onAvatarSkeleton(
  motion: Motion,
  avatar: AvatarSkeleton,
  hipsScaling: 'legs' | 'height' | 'player' = 'legs',
  rotations = avatarRotations(motion, avatar),
): { motion: Motion; legScale: number; heightScale: number } {
  const pos = avatar.positions;
  const present = new Set(Object.keys(pos) as HumanBoneName[]);
  // buildMotion adds every humanoid ancestor; the ones this avatar lacks sit at their parent (zero offset, no track).
  const offsets: Partial<Record<HumanBoneName, Vec3>> = {};
  const at = (b: HumanBoneName): Vec3 => {
    for (let p: HumanBoneName | null = b; p; p = HUMAN_BONE_PARENT[p]) if (pos[p]) return pos[p]!;
    return [0, 0, 0];
  };
  for (const b of HUMAN_BONE_NAMES) {
    const parent = HUMAN_BONE_PARENT[b];
    offsets[b] = !present.has(b) ? [0, 0, 0] : parent === null ? pos[b]! : sub3(pos[b]!, at(parent));
  }
  const srcLeg = legLength((b) => motion.rest.bones[b]?.worldPosition);
  const avaLeg = legLength((b) => pos[b]);
  const legScale = srcLeg > 1e-3 && avaLeg > 1e-3 ? avaLeg / srcLeg : avatar.hipsHeight / Math.max(motion.rest.hipsHeight, 1e-3);
  const heightScale = motion.rest.hipsHeight > 1e-3 ? avatar.hipsHeight / motion.rest.hipsHeight : 1;
  let hipsTranslation: KeyTrack | undefined;
  const hc = boneChannel(motion, 'hips', 'translation');
  const srcRest = motion.rest.bones.hips?.worldPosition ?? [0, motion.rest.hipsHeight, 0];
  if (hc) {
    const world = hipsToWorld(hc.values, motion);
    const values = new Float32Array(world.length);
    const a = pos.hips!;
    const scale = hipsScaling === 'height' ? heightScale : legScale;
    for (let i = 0; i < world.length; i += 3) {
      if (hipsScaling === 'player') {
        // What three-vrm-animation does: the whole hips position times the ratio of hips heights.
        values[i] = world[i] * heightScale;
        values[i + 1] = world[i + 1] * heightScale;
        values[i + 2] = world[i + 2] * heightScale;
        continue;
      }
      values[i] = a[0] + (world[i] - srcRest[0]) * scale;
      values[i + 1] = a[1] + (world[i + 1] - srcRest[1]) * scale;
      values[i + 2] = a[2] + (world[i + 2] - srcRest[2]) * scale;
    }
    hipsTranslation = { times: hc.times, values };
  }
  const expressions: Record<string, KeyTrack> = {};
  for (const e of motion.expressions) {
    const c = findChannel(motion, e.node, 'translation');
    if (!c) continue;
    const values = new Float32Array(c.times.length);
    for (let i = 0; i < values.length; i++) values[i] = c.values[i * 3];
    expressions[e.name] = { times: c.times, values };
  }
  const look = motion.lookAtNode !== undefined ? findChannel(motion, motion.lookAtNode, 'rotation') : undefined;
  const built = buildMotion({
    rotations,
    hipsTranslation,
    expressions,
    lookAt: look ? { times: look.times, values: look.values } : undefined,
    offsets,
    bones: [...present],
    warnings: motion.warnings,
    generator: 'VRMA Studio (fit)',
  });
  return { motion: { ...built, animationName: motion.animationName, animationExtras: motion.animationExtras }, legScale, heightScale };
}

/** Lifts any ankle/toe below its rest height back to it (leg IK, the lift widened and smoothed). */
function keepAboveFloor(motion: Motion, times: Float32Array, smoothing: number, progress?: Progress): Motion {
  const poses = posesAt(motion, times, LEG_POSE_BONES, progress);
  const n = times.length;
  const dt = n > 1 ? (times[n - 1] - times[0]) / (n - 1) : 1;
  const rest = motion.rest.bones;
  const pins: LimbPin[] = [];
  for (const [limb, toes] of [['leftLeg', 'leftToes'], ['rightLeg', 'rightToes']] as const) {
    const foot = LIMB_BONES[limb][2];
    const lift = new Float64Array(n);
    for (let f = 0; f < n; f++) {
      let need = rest[foot]!.worldPosition[1] - poses[f][foot]!.position[1];
      if (poses[f][toes] && rest[toes]) need = Math.max(need, rest[toes]!.worldPosition[1] - poses[f][toes]!.position[1]);
      // 0.5 mm above, so float32 storage cannot put it back under.
      lift[f] = need > -0.0005 ? need + 0.0005 : 0;
    }
    if (!lift.some((x) => x > 0)) continue;
    const smooth = widenAndSmooth(lift, Math.round(smoothing / Math.max(dt, 1e-6)));
    const weight = new Float64Array(n);
    const target = new Float64Array(n * 3);
    for (let f = 0; f < n; f++) {
      const p = poses[f][foot]!.position;
      weight[f] = smooth[f] > 0 ? 1 : 0;
      target.set([p[0], p[1] + smooth[f], p[2]], f * 3);
    }
    pins.push({ limb, weight, target });
  }
  return pins.length ? pinLimbs(motion, times, pins, { poses }).motion : motion;
}

/**
 * Holds steadied against short whole-leg pops (step 3). Per frame, the excess stretch
 * e = |hold - hip| - |own ankle - hip| (how much farther the hold, lerp(own, target, weight), puts the
 * ankle from the hip than the motion's own leg has it; 0 where the weight is 0) is replaced by its
 * running median over ±`window` frames, then its box average over the same window, and the hold's
 * height set so it has that stretch (its horizontal position is kept, so drift is untouched). Both
 * leave ramps and the slow change of a walk as they are; the median removes spikes up to `window`
 * frames long (a pop of the whole leg), the average spreads a one-frame jump of the source's foot
 * against its hip (which a held foot would turn into a knee step) over 2·window+1 frames.
 */
export function steadyStretch(pins: readonly LimbPin[], poses: readonly SkeletonPose[], window: number): LimbPin[] {
  if (window < 1) return [...pins];
  const n = poses.length;
  return pins.map((pin) => {
    const [ub, , eb] = LIMB_BONES[pin.limb];
    const hold = (f: number): Vec3 => {
      const own = poses[f][eb]!.position, w = pin.weight[f];
      return [0, 1, 2].map((k) => own[k] + w * (pin.target[f * 3 + k] - own[k])) as unknown as Vec3;
    };
    const excess = new Float64Array(n);
    for (let f = 0; f < n; f++) {
      if (!(pin.weight[f] > 0)) continue;
      const root = poses[f][ub]!.position;
      excess[f] = length3(sub3(hold(f), root)) - length3(sub3(poses[f][eb]!.position, root));
    }
    // Median (removes spikes), then a box average over the same window (spreads a step in the
    // source's foot-to-hip offset over 2·window+1 frames instead of one).
    const median = new Float64Array(n);
    const near: number[] = [];
    for (let f = 0; f < n; f++) {
      near.length = 0;
      for (let k = f - window; k <= f + window; k++) near.push(excess[Math.min(n - 1, Math.max(0, k))]);
      near.sort((x, y) => x - y);
      median[f] = near[window];
    }
    const target = Float64Array.from(pin.target);
    for (let f = 0; f < n; f++) {
      const w = pin.weight[f];
      if (!(w > 0)) continue;
      let med = 0;
      for (let k = f - window; k <= f + window; k++) med += median[Math.min(n - 1, Math.max(0, k))];
      med /= 2 * window + 1;
      if (Math.abs(med - excess[f]) < 1e-5) continue;
      const root = poses[f][ub]!.position, own = poses[f][eb]!.position;
      const h0 = hold(f);
      const want = length3(sub3(own, root)) + med;
      const h = Math.hypot(h0[0] - root[0], h0[2] - root[2]);
      // The ankle stays below the hip; where the wanted stretch is shorter than the horizontal gap, keep the hold as it was.
      if (!(want > h)) continue;
      const y = root[1] - Math.sqrt(want * want - h * h);
      // The hold is lerp(own, target, w): the target height that puts it at y.
      target[f * 3 + 1] = own[1] + (y - own[1]) / w;
    }
    return { limb: pin.limb, weight: pin.weight, target };
  });
}

/**
 * Sum over the contacts of the planted-foot drift (m) of a motion on the avatar, before pinning, and
 * the leg poses it was measured on (the chosen motion's are the pinning's too).
 */
function slideOf(motion: Motion, detection: ContactDetection, progress?: Progress): { slide: number; poses: SkeletonPose[] } {
  const poses = posesAt(motion, detection.times, LEG_POSE_BONES, progress);
  return { slide: measurePoses(poses, detection, {}).drifts.reduce((s, d) => s + d, 0), poses };
}

/** Where fitDetailed's phases end, as fractions of its time (measured on the 10-minute motion). */
const F = { detected: 0.15, rescaled: 0.24, slidLegs: 0.45, slidHeight: 0.66, pinned: 0.8, lifted: 0.87 };

/** With `progress`: reported at each phase, and through the leg poses measured (most of the time). */
export function fitDetailed(motion: Motion, avatar: AvatarSkeleton, params: PinFeetParams = {}, progress?: Progress): FitResult {
  const blend = requireNonNegative('blend', params.blend ?? DEFAULT_PIN_BLEND);
  if (blend > MAX_PIN_BLEND) fail('BAD_PARAMETER', 'blend.tooLong', { max: MAX_PIN_BLEND, value: String(blend) });
  if (!canPinFeet(motion)) fail('BAD_PARAMETER', 'motion.noLegs');
  for (const b of [...LIMB_BONES.leftLeg, ...LIMB_BONES.rightLeg]) if (!avatar.positions[b]) fail('BAD_PARAMETER', 'avatar.noBone', { bone: b });
  const detection = detectFootContacts(motion, params);
  progress?.(F.detected);
  const rotations = avatarRotations(motion, avatar);
  const byLegs = onAvatarSkeleton(motion, avatar, 'legs', rotations);
  const { legScale, heightScale } = byLegs;
  const byHeight = Math.abs(legScale - heightScale) > 1e-9 ? onAvatarSkeleton(motion, avatar, 'height', rotations).motion : byLegs.motion;
  progress?.(F.rescaled);
  const onLegs = slideOf(byLegs.motion, detection, phase(progress, F.rescaled, F.slidLegs));
  const onHeight = byHeight === byLegs.motion ? onLegs : slideOf(byHeight, detection, phase(progress, F.slidLegs, F.slidHeight));
  progress?.(F.slidHeight);
  const slide = { legs: onLegs.slide, height: onHeight.slide };
  const hipsScaling = slide.height < slide.legs ? 'height' : 'legs';
  const rescaled = hipsScaling === 'height' ? byHeight : byLegs.motion;
  const times = detection.times;
  let out = rescaled;
  if (detection.contacts.length) {
    const poses = hipsScaling === 'height' ? onHeight.poses : onLegs.poses;
    const dt = times.length > 1 ? (times[times.length - 1] - times[0]) / (times.length - 1) : 1;
    // Spikes up to half the shortest contact long: the gaps contact detection closes (pinFeet.ts).
    const window = Math.round((params.minContact ?? DEFAULT_MIN_CONTACT) / 2 / Math.max(dt, 1e-6));
    const pins = steadyStretch(footPins(detection, poses, blend), poses, window);
    out = pinLimbs(rescaled, times, pins, { lowerHips: true, smoothing: blend, poses }).motion;
  }
  progress?.(F.pinned);
  out = keepAboveFloor(out, times, Math.max(blend, 0.05), phase(progress, F.pinned, F.lifted));
  const played = onAvatarSkeleton(motion, avatar, 'player', rotations).motion;
  progress?.(1);
  return {
    motion: out,
    rescaled,
    played,
    detection,
    legScale,
    heightScale,
    hipsScaling,
    hipsScale: hipsScaling === 'height' ? heightScale : legScale,
    slide,
  };
}

export function fit(motion: Motion, avatar: AvatarSkeleton, params: PinFeetParams = {}): Motion {
  return fitDetailed(motion, avatar, params).motion;
}
