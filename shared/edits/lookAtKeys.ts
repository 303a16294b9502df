/**
 * The gaze as keys (issue 13). VRMC_vrm_animation 1.0 animates the rotation of its lookAt node;
 * three-vrm-animation plays that rotation on a VRMLookAtQuaternionProxy, which reads it as Euler
 * angles in the order Y, X, Z: yaw is the angle about Y and pitch the angle about X, in degrees, as
 * VRMLookAt.yaw/pitch (three.js convention: a positive pitch looks down). So a key here is
 * q = Ry(yaw)·Rx(pitch), no roll, the same rotation the pre-release gaze points convert to.
 */
import type { Motion, Quat } from '../motion/types';
import { findChannel } from '../motion/types';
import { fail } from '../errors';
import { fromEuler } from '../math/euler';
import { toEulerYXZ } from '../math/euler';
import { sampleChannel } from '../vrma/sample';
import { requireFinite } from './params';
import { keyTime, replaceChannel, withKeyValue, withRootNode } from './faceNodes';

export interface YawPitch {
  /** Degrees about Y (positive turns the gaze from +Z towards +X). */
  readonly yaw: number;
  /** Degrees about X (positive turns the gaze from +Z towards -Y: down). */
  readonly pitch: number;
}

const DEG = Math.PI / 180;

/** The lookAt node's rotation for a gaze. */
export function lookAtRotation(yaw: number, pitch: number): Quat {
  return fromEuler('YX', { X: pitch * DEG, Y: yaw * DEG, Z: 0 });
}

/** Yaw and pitch (degrees) of a lookAt rotation, as VRMLookAtQuaternionProxy reads it. */
export function yawPitchOf(q: Quat): YawPitch {
  const e = toEulerYXZ(q);
  return { yaw: e.Y / DEG, pitch: e.X / DEG };
}

/** The gaze the motion holds at time t; null when it has no lookAt track (the avatar looks ahead). */
export function lookAtAt(motion: Motion, t: number): YawPitch | null {
  const channel = motion.lookAtNode === undefined ? undefined : findChannel(motion, motion.lookAtNode, 'rotation');
  if (!channel) return null;
  const q = sampleChannel(channel, t, new Float64Array(4));
  return yawPitchOf([q[0], q[1], q[2], q[3]]);
}

/**
 * A lookAt key at t (yaw in -180..180, pitch in -90..90 degrees); a key already at that time is
 * replaced. A motion without a lookAt node gets one and a track; every other track is shared.
 */
export function setLookAtKey(motion: Motion, t: number, yaw: number, pitch: number): Motion {
  requireFinite('yaw', yaw);
  requireFinite('pitch', pitch);
  if (Math.abs(yaw) > 180) fail('BAD_PARAMETER', 'lookAt.yaw', { value: String(yaw) });
  if (Math.abs(pitch) > 90) fail('BAD_PARAMETER', 'lookAt.pitch', { value: String(pitch) });
  const tf = keyTime(motion, t);
  let node = motion.lookAtNode;
  let next: Partial<Motion> = {};
  if (node === undefined) {
    const added = withRootNode(motion.gltf, { name: 'lookAt' });
    node = added.index;
    next = { gltf: added.gltf, lookAtNode: node };
  }
  const old = findChannel(motion, node, 'rotation');
  return replaceChannel(motion, old, withKeyValue(old, node, 'rotation', tf, Float32Array.from(lookAtRotation(yaw, pitch))), next);
}
