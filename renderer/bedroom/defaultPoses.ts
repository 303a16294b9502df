/**
 * The two sleep poses the bedroom ships, made in code on the standard skeleton (normalized
 * rotations, so they play the same on every avatar). Both tilt the whole body through the hips so
 * the head points along -Z; the placement then turns it toward the pillow. With the room's layout
 * the viewer is on the body's right, so the back pose turns the face right and the side pose lies on
 * the right side, facing the viewer: turning over is a quarter roll about the body's long axis.
 */
import type { Motion, Quat, Vec3 } from '../../shared/motion/types';
import { IDENTITY, conj, fromAxisAngle, fromUnitVectors, mul, rotateVec } from '../../shared/math/quat';
import { buildMotion, type KeyTrack } from '../../shared/vrma/buildMotion';
import type { HumanBoneName } from '../../shared/vrm/humanBones';

const DEG = Math.PI / 180;
const X: Vec3 = [1, 0, 0];
const Y: Vec3 = [0, 1, 0];
const Z: Vec3 = [0, 0, 1];

function still(q: Quat): KeyTrack {
  return { times: new Float32Array([0]), values: new Float32Array(q) };
}

function pose(rotations: Partial<Record<HumanBoneName, Quat>>, name: string): Motion {
  const tracks: Partial<Record<HumanBoneName, KeyTrack>> = {};
  for (const [bone, q] of Object.entries(rotations) as [HumanBoneName, Quat][]) tracks[bone] = still(q);
  return buildMotion({ rotations: tracks, generator: `VRMA Studio bedroom (${name})` });
}

/** Face up, head toward -Z. */
export const BACK_TILT: Quat = fromAxisAngle(X, -90 * DEG);
/** The back tilt rolled a quarter turn onto the right side (left shoulder up, face toward -X). */
export const SIDE_TILT: Quat = mul(fromAxisAngle(Z, 90 * DEG), BACK_TILT);

export function makeBackPose(): Motion {
  return pose(
    {
      hips: BACK_TILT,
      leftUpperLeg: fromAxisAngle(Z, 4 * DEG),
      rightUpperLeg: fromAxisAngle(Z, -4 * DEG),
      leftLowerLeg: fromAxisAngle(X, 4 * DEG),
      rightLowerLeg: fromAxisAngle(X, 4 * DEG),
      leftFoot: fromAxisAngle(X, 30 * DEG),
      rightFoot: fromAxisAngle(X, 30 * DEG),
      // Arms resting along the sides.
      leftUpperArm: fromAxisAngle(Z, -78 * DEG),
      rightUpperArm: fromAxisAngle(Z, 78 * DEG),
      leftLowerArm: fromAxisAngle(Y, -8 * DEG),
      rightLowerArm: fromAxisAngle(Y, 8 * DEG),
      // The face turned toward the viewer (the body's right in this room), the chin slightly down
      // so the head rests up on the pillow.
      neck: mul(fromAxisAngle(Y, -12 * DEG), fromAxisAngle(X, 12 * DEG)),
      head: mul(fromAxisAngle(Y, -30 * DEG), fromAxisAngle(X, 6 * DEG)),
    },
    'back',
  );
}

/** Local rotation that turns a bone's rest direction to `dir`, both given in its parent's frame. */
function aim(rest: Vec3, dir: Vec3, parentRotation: Quat): Quat {
  return fromUnitVectors(rest, rotateVec(conj(parentRotation), dir));
}

export function makeSidePose(): Motion {
  // Directions below are in the body's frame (hips frame before the tilt): +Y head, +Z face,
  // +X the avatar's left, which the tilt turns upward; so -X is toward the mattress.
  const spine = fromAxisAngle(X, 10 * DEG);
  const chest = fromAxisAngle(X, 8 * DEG);
  const torso = mul(spine, chest);
  const leftUpperLeg = aim([0, -1, 0], [-0.32, -0.45, 0.83], IDENTITY);
  const rightUpperLeg = aim([0, -1, 0], [0, -0.78, 0.62], IDENTITY);
  const leftUpperArm = aim([1, 0, 0], [-0.25, -0.55, 0.8], torso);
  const rightUpperArm = aim([-1, 0, 0], [0, 0.15, 0.99], torso);
  return pose(
    {
      hips: SIDE_TILT,
      spine,
      chest,
      // The head leans down toward the pillow.
      neck: mul(fromAxisAngle(Z, 8 * DEG), fromAxisAngle(X, 6 * DEG)),
      head: mul(fromAxisAngle(Z, 6 * DEG), fromAxisAngle(X, 8 * DEG)),
      // Knees drawn up; the upper (left) leg falls forward onto the bed in front of the lower one.
      leftUpperLeg,
      leftLowerLeg: aim([0, -1, 0], [-0.12, -0.85, -0.5], leftUpperLeg),
      rightUpperLeg,
      rightLowerLeg: aim([0, -1, 0], [0, -0.55, -0.83], rightUpperLeg),
      leftFoot: fromAxisAngle(X, 20 * DEG),
      rightFoot: fromAxisAngle(X, 20 * DEG),
      // The upper arm rests along the body with the hand on the bed in front of the chest; the lower
      // arm lies forward with its hand near the face.
      leftUpperArm,
      leftLowerArm: aim([1, 0, 0], [-0.55, 0.15, 0.82], mul(torso, leftUpperArm)),
      rightUpperArm,
      rightLowerArm: aim([-1, 0, 0], [0.02, 0.45, 0.89], mul(torso, rightUpperArm)),
    },
    'side',
  );
}

/**
 * Sitting up in bed, legs stretched along it, back upright: the way into and out of the lying poses.
 * Its legs point the same way as the lying poses' (+Z before the placement's turn), so the body
 * reclines from it onto the pillow without turning.
 */
export function makeSitPose(): Motion {
  return pose(
    {
      spine: fromAxisAngle(X, -8 * DEG),
      leftUpperLeg: mul(fromAxisAngle(X, -88 * DEG), fromAxisAngle(Z, 3 * DEG)),
      rightUpperLeg: mul(fromAxisAngle(X, -88 * DEG), fromAxisAngle(Z, -3 * DEG)),
      leftLowerLeg: fromAxisAngle(X, 6 * DEG),
      rightLowerLeg: fromAxisAngle(X, 6 * DEG),
      leftFoot: fromAxisAngle(X, 30 * DEG),
      rightFoot: fromAxisAngle(X, 30 * DEG),
      leftUpperArm: fromAxisAngle(Z, -72 * DEG),
      rightUpperArm: fromAxisAngle(Z, 72 * DEG),
      leftLowerArm: fromAxisAngle(Y, -20 * DEG),
      rightLowerArm: fromAxisAngle(Y, 20 * DEG),
      head: fromAxisAngle(X, 8 * DEG),
    },
    'sit',
  );
}
