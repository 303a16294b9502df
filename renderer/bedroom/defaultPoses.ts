/**
 * The two sleep poses the bedroom ships, made in code on the standard skeleton (normalized
 * rotations, so they play the same on every avatar). Both tilt the whole body through the hips so
 * the head points along -Z; the placement then turns it toward the pillow. With the room's layout
 * the viewer is on the body's right, so the back pose turns the face right and the side pose lies on
 * the right side, facing the viewer: turning over is a quarter roll about the body's long axis.
 */
import type { Motion, Quat, Vec3 } from '../../shared/motion/types';
import { fromAxisAngle, fromUnitVectors, mul } from '../../shared/math/quat';
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
      // The face turned toward the viewer (the body's right in this room).
      neck: fromAxisAngle(Y, -12 * DEG),
      head: fromAxisAngle(Y, -30 * DEG),
    },
    'back',
  );
}

export function makeSidePose(): Motion {
  return pose(
    {
      hips: SIDE_TILT,
      spine: fromAxisAngle(X, 10 * DEG),
      chest: fromAxisAngle(X, 8 * DEG),
      neck: fromAxisAngle(X, 6 * DEG),
      head: fromAxisAngle(X, 8 * DEG),
      // Knees drawn up, the upper (left) leg further forward so the legs do not overlap.
      leftUpperLeg: fromAxisAngle(X, -65 * DEG),
      leftLowerLeg: fromAxisAngle(X, 85 * DEG),
      rightUpperLeg: fromAxisAngle(X, -40 * DEG),
      rightLowerLeg: fromAxisAngle(X, 70 * DEG),
      leftFoot: fromAxisAngle(X, 20 * DEG),
      rightFoot: fromAxisAngle(X, 20 * DEG),
      // Upper arm resting forward over the body, lower arm forward under the head.
      leftUpperArm: fromUnitVectors(X, [0.3, -0.55, 0.78]),
      leftLowerArm: fromAxisAngle(Y, -60 * DEG),
      rightUpperArm: fromUnitVectors([-1, 0, 0], [-0.25, 0.1, 0.96]),
      rightLowerArm: fromAxisAngle(Y, 70 * DEG),
    },
    'side',
  );
}
