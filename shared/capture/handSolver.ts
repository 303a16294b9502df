/**
 * A hand's 21 landmarks -> the normalized local rotations of its 15 finger bones (and the hand's own
 * world rotation, from the wrist and the index and little knuckles, as the body solver takes it from
 * BlazePose's wrist, index and pinky). Rules for what landmarks cannot show, the same each frame:
 * - a finger (index to little) is a chain of hinges bending about the hand's Z axis at rest: the
 *   proximal bone's twist comes from the plane its first bend shows (segmentFrames' upperLimb, one
 *   sided, so an overstretched finger does not turn the proximal half round), and when the finger is
 *   straight it is the smallest turn from the hand; the intermediate and distal bones are the
 *   smallest turn from their parent (a finger joint does not twist);
 * - the thumb's three bones are the smallest turn from their parent each (its joints bend in no one
 *   plane the landmarks could show reliably).
 * Finger rotations are relative to the hand's frame, so they do not depend on where the arm is.
 */
import type { Quat, Vec3 } from '../motion/types';
import { sub3 } from '../math/vec3';
import type { HumanBoneName } from '../vrm/humanBones';
import { DIGITS, HAND_LANDMARK_COUNT, INDEX_MCP, PINKY_MCP, REST_HANDS, WRIST, type HandSide } from './handLandmarks';
import { align, local, lowerLimb, mid, upperLimb } from './segmentFrames';

/**
 * The axis a finger curls about toward the palm, at rest (palms face down in the T-pose). Only its line
 * matters: the one-sided rule takes the bend's sign from the smallest turn, as a finger never twists a quarter turn.
 */
const CURL_AXIS: Readonly<Record<HandSide, Vec3>> = { left: [0, 0, -1], right: [0, 0, 1] };

export interface SolvedHand {
  /** Local rotations of the finger bones (leftIndexProximal ...), relative to the hand. */
  readonly rotations: Partial<Record<HumanBoneName, Quat>>;
  /** The hand's world rotation as its landmarks show it. */
  readonly handWorld: Quat;
}

/** The hand's frame from the wrist and the index and little knuckles. */
function handFrame(p: readonly Vec3[], rest: readonly Vec3[]): Quat {
  return align(sub3(mid(p[INDEX_MCP], p[PINKY_MCP]), p[WRIST]), sub3(p[INDEX_MCP], p[PINKY_MCP]), sub3(mid(rest[INDEX_MCP], rest[PINKY_MCP]), rest[WRIST]), sub3(rest[INDEX_MCP], rest[PINKY_MCP]));
}

/** Solves one hand from 21 points in the studio's world frame (any scale: only directions count). */
export function solveHand(side: HandSide, points: readonly Vec3[]): SolvedHand {
  if (points.length < HAND_LANDMARK_COUNT) throw new RangeError(`a hand has ${HAND_LANDMARK_COUNT} landmarks, got ${points.length}`);
  const rest = REST_HANDS[side];
  const hand = handFrame(points, rest);
  const rotations: Partial<Record<HumanBoneName, Quat>> = {};
  for (const d of DIGITS) {
    const [a, b, c, tip] = d.landmarks;
    const seg = (i: number, j: number) => sub3(points[j], points[i]);
    const restSeg = (i: number, j: number) => sub3(rest[j], rest[i]);
    const first = d.digit === 'Thumb'
      ? lowerLimb(hand, seg(a, b), restSeg(a, b))
      : upperLimb(hand, seg(a, b), seg(b, c), restSeg(a, b), CURL_AXIS[side], { oneSided: true });
    const second = lowerLimb(first, seg(b, c), restSeg(b, c));
    const third = lowerLimb(second, seg(c, tip), restSeg(c, tip));
    const [b0, b1, b2] = d.bones.map((name) => `${side}${name}` as HumanBoneName);
    rotations[b0] = local(hand, first);
    rotations[b1] = local(first, second);
    rotations[b2] = local(second, third);
  }
  return { rotations, handWorld: hand };
}
