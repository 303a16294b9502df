/**
 * Pre-release VRMA files animated the lookAt node by translation: the node was the point the eyes
 * look at. VRMC_vrm_animation 1.0 animates its rotation instead (the rotation that turns +Z, the
 * avatar's forward, to the gaze). This turns gaze points into that rotation (yaw about Y, then pitch
 * about X, no roll), the same yaw/pitch three-vrm derives from a gaze direction.
 */
import type { Mat4, Vec3 } from '../motion/types';
import { transformPoint } from '../math/mat4';

/** Writes, per key, the quaternion (x, y, z, w) that looks from `eye` at `parentWorld`·translation. */
export function gazePointsToRotations(translations: Float32Array, parentWorld: Mat4, eye: Vec3): Float32Array {
  const count = translations.length / 3;
  const out = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) {
    const p = transformPoint(parentWorld, [translations[i * 3], translations[i * 3 + 1], translations[i * 3 + 2]]);
    const dx = p[0] - eye[0];
    const dy = p[1] - eye[1];
    const dz = p[2] - eye[2];
    const horizontal = Math.hypot(dx, dz);
    let yaw = 0;
    let pitch = 0;
    if (Number.isFinite(horizontal) && (horizontal > 0 || dy !== 0)) {
      yaw = horizontal > 0 ? Math.atan2(dx, dz) : 0;
      // three.js convention: looking up is a negative rotation about X.
      pitch = -Math.atan2(dy, horizontal);
    }
    // q = Ry(yaw)·Rx(pitch)
    const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
    const cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
    out[i * 4] = cy * sp;
    out[i * 4 + 1] = sy * cp;
    out[i * 4 + 2] = -sy * sp;
    out[i * 4 + 3] = cy * cp;
  }
  return out;
}
