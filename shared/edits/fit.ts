/**
 * Fit a motion to an avatar (`vrma-studio fit IN --avatar AVATAR.vrm`, the studio's "Fit to this
 * avatar"): bake it for that avatar's proportions so that, played there by three-vrm-animation, the
 * planted feet stay planted and no foot goes under the floor. The output is a normal .vrma (it plays
 * on any avatar; on this one it is exact).
 *
 * 1. The motion is re-expressed on the avatar's own rest skeleton (shared/vrm/avatarSkeleton.ts):
 *    normalized rotations as they are (that is what three-vrm-animation hands any avatar), bones the
 *    avatar lacks left out (three-vrm-animation ignores them there too), and the rest hips height the
 *    avatar's, so the player's hips scale is 1 on this avatar.
 * 2. The hips path is scaled by leg length, not hips height: three-vrm-animation scales the hips
 *    translation by the ratio of hips heights, which makes feet slide wherever the legs are a larger or
 *    smaller part of the height than in the capture (strides are made by legs). Horizontal travel and
 *    the vertical movement about the rest height are scaled by the ratio of leg lengths (thigh + shin).
 * 3. The source's foot contacts (found on the source's own skeleton, pinFeet.ts) are pinned on the
 *    avatar's legs: each ankle held where the avatar's ankle is at the contact's start, hips lowered
 *    where a leg cannot reach.
 * 4. Floor: wherever an ankle or toe would still be below its rest height (the avatar stands on the
 *    floor in its rest pose), that leg lifts the foot back up (smoothly, by leg IK).
 */
import type { Motion, Vec3 } from '../motion/types';
import { boneChannel, findChannel } from '../motion/types';
import { fail } from '../errors';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../vrm/humanBones';
import type { AvatarSkeleton } from '../vrm/avatarSkeleton';
import { buildMotion, type KeyTrack } from '../vrma/buildMotion';
import { length3, sub3 } from '../math/vec3';
import { LIMB_BONES, pinLimbs, widenAndSmooth, type LimbPin } from '../ik/pinLimbs';
import { hipsToWorld, rotationsToNormalized } from './normalizedTracks';
import { canPinFeet, DEFAULT_PIN_BLEND, MAX_PIN_BLEND, detectFootContacts, footPins, posesAt, type ContactDetection, type PinFeetParams } from './pinFeet';
import { requireNonNegative } from './params';

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
  /** Leg-length ratio avatar / source the hips path was scaled by, and the hips-height ratio a player would have used. */
  readonly legScale: number;
  readonly heightScale: number;
}

/**
 * The motion on the avatar's rest skeleton, hips path scaled by leg length (steps 1 and 2); with
 * 'player', scaled the way three-vrm-animation scales it (the hips-height ratio): what the avatar shows
 * of the source without fitting.
 */
export function onAvatarSkeleton(motion: Motion, avatar: AvatarSkeleton, hipsScaling: 'legs' | 'player' = 'legs'): { motion: Motion; legScale: number; heightScale: number } {
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
  const rotations: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const c of motion.channels) {
    const bone = motion.humanoid.nodeToBone.get(c.node);
    const rest = bone && motion.rest.bones[bone];
    if (!bone || !rest || c.path !== 'rotation' || !present.has(bone)) continue;
    rotations[bone] = { times: c.times, values: Float32Array.from(rotationsToNormalized(c.values, rest)) };
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
    for (let i = 0; i < world.length; i += 3) {
      if (hipsScaling === 'player') {
        // What three-vrm-animation does: the whole hips position times the ratio of hips heights.
        values[i] = world[i] * heightScale; values[i + 1] = world[i + 1] * heightScale; values[i + 2] = world[i + 2] * heightScale;
        continue;
      }
      values[i] = a[0] + (world[i] - srcRest[0]) * legScale;
      values[i + 1] = a[1] + (world[i + 1] - srcRest[1]) * legScale;
      values[i + 2] = a[2] + (world[i + 2] - srcRest[2]) * legScale;
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
function keepAboveFloor(motion: Motion, times: Float32Array, smoothing: number): Motion {
  const poses = posesAt(motion, times);
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
  return pins.length ? pinLimbs(motion, times, pins).motion : motion;
}

export function fitDetailed(motion: Motion, avatar: AvatarSkeleton, params: PinFeetParams = {}): FitResult {
  const blend = requireNonNegative('blend', params.blend ?? DEFAULT_PIN_BLEND);
  if (blend > MAX_PIN_BLEND) fail('BAD_PARAMETER', `blend must be at most ${MAX_PIN_BLEND} s, got ${blend} s`);
  if (!canPinFeet(motion)) fail('BAD_PARAMETER', "the motion's skeleton has no complete legs (upper leg, lower leg, foot) to fit");
  for (const b of [...LIMB_BONES.leftLeg, ...LIMB_BONES.rightLeg]) if (!avatar.positions[b]) fail('BAD_PARAMETER', `the avatar has no ${b} bone`);
  const detection = detectFootContacts(motion, params);
  const { motion: rescaled, legScale, heightScale } = onAvatarSkeleton(motion, avatar);
  const times = detection.times;
  let out = rescaled;
  if (detection.contacts.length) {
    const poses = posesAt(rescaled, times);
    out = pinLimbs(rescaled, times, footPins(detection, poses, blend), { lowerHips: true, smoothing: blend }).motion;
  }
  out = keepAboveFloor(out, times, Math.max(blend, 0.05));
  return { motion: out, rescaled, played: onAvatarSkeleton(motion, avatar, 'player').motion, detection, legScale, heightScale };
}

export function fit(motion: Motion, avatar: AvatarSkeleton, params: PinFeetParams = {}): Motion {
  return fitDetailed(motion, avatar, params).motion;
}
