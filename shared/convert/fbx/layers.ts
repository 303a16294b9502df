/**
 * Several animation layers of one FBX stack, blended into one local transform per joint and frame,
 * after the FBX SDK's FbxAnimLayer (BlendMode, Weight, Mute, Solo, RotationAccumulationMode,
 * ScaleAccumulationMode). Layers apply in file order to the properties they animate:
 * - the first layer that animates a property gives its value (at weight w: lerp(model's value, layer, w));
 * - additive (BlendMode 0, the default): T += w·L; rotation by layer (the default) composes
 *   quaternions, R = R · slerp(I, q(L), w); by channel the Euler components add, R += w·L; scale
 *   multiplies, S ·= L^w, or with ScaleAccumulationMode "additive" adds, S += w·L;
 * - override (1): the layer hides the layers before it: lerp(model's value, L, w) (slerp for rotations by layer);
 * - override-passthrough (2): the weight lets the layers before it through: lerp(current, L, w).
 * A muted layer is left out; when any layer is solo, only solo layers count. A component the layer
 * does not key (no curve, no default on its curve node) leaves that component as it was. When a
 * by-channel layer follows a by-layer one, its Euler values compose as a quaternion (they cannot add
 * to a composed rotation).
 */
import type { Quat, Vec3 } from '../../motion/types';
import { mul, slerp } from '../../math/quat';
import { pow } from '../../math/quatPow';
import type { CurveCursor } from './curves';
import type { FbxLayer } from './sceneTypes';
import { eulerToQuat, type TransformParts } from './transform';

/** A component of a layer's property: a curve, a constant, or not set by the layer. */
export type Component = CurveCursor | number | undefined;

export interface LayerChannels {
  readonly layer: FbxLayer;
  /** The layer's weight, 0..1 (an animated weight is a curve of 0..100). */
  readonly weight: CurveCursor | number;
  /** T, R, S of this joint on this layer, or undefined when the layer does not animate the property. */
  readonly slots: readonly (readonly [Component, Component, Component] | undefined)[];
}

/** The layers that count: not muted, and only the solo ones when any is solo. */
export function activeLayers<T extends { readonly mute: boolean; readonly solo: boolean }>(layers: readonly T[]): T[] {
  const unmuted = layers.filter((l) => !l.mute);
  return unmuted.some((l) => l.solo) ? unmuted.filter((l) => l.solo) : unmuted;
}

export interface BlendedLocal {
  readonly t: Vec3;
  /** Euler degrees in the model's order, or the composed rotation when a layer composed quaternions. */
  readonly r: Vec3 | Quat;
  readonly s: Vec3;
}

const lerp = (a: number, b: number, w: number) => a + (b - a) * w;
const signedPow = (v: number, w: number) => (v < 0 ? -((-v) ** w) : v ** w);

export function blendLayers(parts: TransformParts, layers: readonly LayerChannels[], ticks: number): BlendedLocal {
  const base: Vec3[] = [parts.translation, parts.rotation, parts.scaling];
  const cur: [number, number, number][] = base.map((v) => [v[0], v[1], v[2]]);
  let q: Quat | null = null;
  const seen = [false, false, false];
  const order = parts.rotationOrder;
  for (const lc of layers) {
    const { layer } = lc;
    const w = typeof lc.weight === 'number' ? lc.weight : Math.max(0, lc.weight.at(ticks)) / 100;
    for (let slot = 0; slot < 3; slot++) {
      const comps = lc.slots[slot];
      if (!comps) continue;
      const v = comps.map((c) => (c === undefined ? undefined : typeof c === 'number' ? c : c.at(ticks)));
      const first = !seen[slot];
      seen[slot] = true;
      const c = cur[slot];
      if (slot === 1 && !first && (!layer.rotationByChannel || q)) {
        // Rotations composed as quaternions.
        const filled = (fallback: Vec3): Vec3 => [v[0] ?? fallback[0], v[1] ?? fallback[1], v[2] ?? fallback[2]];
        const now = q ?? eulerToQuat(c, order);
        if (layer.blend === 'additive') q = mul(now, pow(eulerToQuat(filled([0, 0, 0]), order), w));
        else if (layer.blend === 'override') q = slerp(eulerToQuat(base[1], order), eulerToQuat(filled(base[1]), order), w);
        else q = slerp(now, eulerToQuat(filled(c), order), w);
        continue;
      }
      for (let k = 0; k < 3; k++) {
        const x = v[k];
        if (x === undefined) continue;
        if (first || layer.blend === 'override') c[k] = lerp(base[slot][k], x, w);
        else if (layer.blend === 'passthrough') c[k] = lerp(c[k], x, w);
        else if (slot === 2 && !layer.scaleAdditive) c[k] *= signedPow(x, w);
        else c[k] += w * x;
      }
      if (slot === 1) q = null;
    }
  }
  return { t: cur[0], r: q ?? cur[1], s: cur[2] };
}
