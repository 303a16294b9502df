/**
 * Drag selected keys' values (the curve view): one component of what the curve view shows changes by
 * `delta`, every other key and track stays as it is, bit for bit.
 * - A humanoid bone's rotation: the XYZ Euler angle `component` (radians) of its normalized rotation,
 *   continuous along the track as the view draws it (shared/math/euler). The new key is reached with
 *   the gizmo's own edit, applyPoseDelta at the key's time with no falloff, by the normalized delta
 *   D = n'·n⁻¹, so the rest-pose math is the pose editor's: applyPoseDelta's own per-key step
 *   (keyRotation, rotateKey), on one copy of the track for all selected keys (bit for bit what
 *   applyPoseDelta at each key's time with no falloff gives, without a copy of the track per key).
 * - Another node's rotation (lookAt): the same Euler angle of the file rotation itself.
 * - The hips position: world metres along axis `component`, again through applyPoseDelta (hipsDelta).
 * - Expression weights (translation.x of the expression node): the weight, kept within 0..1.
 * - Any other translation or scale: file units of that component.
 */
import type { Channel, Motion, Quat } from '../motion/types';
import { componentsOf, withChannels } from '../motion/types';
import { fail } from '../errors';
import { conj, dot, IDENTITY, mul, normalize } from '../math/quat';
import { eulerSeries, quatOfEuler } from '../math/euler';
import { requireFinite } from './params';
import { selectedChannel, type KeySelection } from './keySelection';
import { applyPoseDelta, keyRotation, rotateKey } from './poseDelta';
import { requireRestBone, rotationsToNormalized } from '../vrma/normalizedTracks';

/** Continuous Euler angles (radians, 3 per key) of a rotation track as the curve view shows it. */
export function rotationEulerSeries(motion: Motion, channel: Channel): Float64Array {
  const bone = motion.humanoid.nodeToBone.get(channel.node);
  const rest = bone !== undefined ? motion.rest.bones[bone] : undefined;
  return eulerSeries(rest ? rotationsToNormalized(channel.values, rest) : channel.values);
}

export function moveKeyValues(motion: Motion, selection: KeySelection, component: number, delta: number): Motion {
  requireFinite('value change', delta);
  if (!Number.isInteger(component) || component < 0 || component > 2) fail('BAD_PARAMETER', 'keys.component', { component: String(component) });
  if (delta === 0 || selection.length === 0) return motion;
  let result = motion;
  const replaced = new Map<Channel, Channel>();
  const expressionNodes = new Set(motion.expressions.map((e) => e.node));
  for (const entry of selection) {
    const { channel, mask, count } = selectedChannel(motion, entry);
    if (count === 0) continue;
    const bone = motion.humanoid.nodeToBone.get(channel.node);
    if (channel.path === 'rotation') {
      const series = rotationEulerSeries(motion, channel);
      if (bone !== undefined && motion.rest.bones[bone]) {
        const rest = requireRestBone(motion, bone);
        const normalized = rotationsToNormalized(channel.values, rest);
        const p = rest.parentWorld;
        const pInv = conj(p);
        const values = channel.values.slice();
        for (let k = 0; k < mask.length; k++) {
          if (!mask[k]) continue;
          const e = [series[k * 3], series[k * 3 + 1], series[k * 3 + 2]];
          e[component] += delta;
          const n: Quat = normalize([normalized[k * 4], normalized[k * 4 + 1], normalized[k * 4 + 2], normalized[k * 4 + 3]]);
          // The gizmo's step for one key (applyPoseDelta at the key's time, no falloff), on one copy of the track.
          const d = keyRotation(mul(quatOfEuler(e[0], e[1], e[2]), conj(n)));
          if (d.axisLen > 1e-12) rotateKey(values, k, d, p, pInv, 1);
        }
        replaced.set(channel, { ...channel, values });
        continue;
      }
      const values = channel.values.slice();
      for (let k = 0; k < mask.length; k++) {
        if (!mask[k]) continue;
        const e = [series[k * 3], series[k * 3 + 1], series[k * 3 + 2]];
        e[component] += delta;
        const old: Quat = [values[k * 4], values[k * 4 + 1], values[k * 4 + 2], values[k * 4 + 3]];
        let q = quatOfEuler(e[0], e[1], e[2]);
        // The same hemisphere as the old key, so interpolation to its neighbours takes the same way.
        if (dot(q, old) < 0) q = [-q[0], -q[1], -q[2], -q[3]];
        values.set(q, k * 4);
      }
      replaced.set(channel, { ...channel, values });
      continue;
    }
    if (channel.path === 'translation' && bone === 'hips') {
      const hipsDelta: [number, number, number] = [0, 0, 0];
      hipsDelta[component] = delta;
      for (let k = 0; k < mask.length; k++) if (mask[k]) result = applyPoseDelta(result, 'hips', IDENTITY, channel.times[k], 0, { hipsDelta });
      continue;
    }
    const size = componentsOf(channel.path);
    const weight = channel.path === 'translation' && expressionNodes.has(channel.node);
    const values = channel.values.slice();
    for (let k = 0; k < mask.length; k++) {
      if (!mask[k]) continue;
      const v = values[k * size + component] + delta;
      values[k * size + component] = weight ? Math.min(Math.max(v, 0), 1) : v;
    }
    replaced.set(channel, { ...channel, values });
  }
  if (!replaced.size) return result;
  return withChannels(result, result.channels.map((c) => replaced.get(c) ?? c));
}
