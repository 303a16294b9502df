/**
 * Expression weights as keys (issue 13): the weight of an expression at a time, and a key setting
 * it. Per VRMC_vrm_animation an expression's weight is the translation.x of its node, in [0, 1]
 * (players clamp; we clamp when writing a key). The y and z of the translation mean nothing to a
 * player and are kept as the track had them at that time. The four lookUp/Down/Left/Right presets
 * may carry no animation (the spec gives the gaze to lookAt), so they are refused here.
 */
import type { ExpressionRef, Motion } from '../motion/types';
import { findChannel } from '../motion/types';
import { EXPRESSION_PRESETS } from '../vrm/humanBones';
import { fail } from '../errors';
import { sampleChannel } from '../vrma/sample';
import { requireFinite } from './params';
import { restValue } from './keySelection';
import { keyTime, replaceChannel, withKeyValue, withRootNode } from './faceNodes';

/** Presets that the gaze drives; a VRM Animation may not animate them. */
export const GAZE_EXPRESSIONS: ReadonlySet<string> = new Set(['lookUp', 'lookDown', 'lookLeft', 'lookRight']);
const PRESETS: ReadonlySet<string> = new Set(EXPRESSION_PRESETS);

export const isPresetExpression = (name: string): boolean => PRESETS.has(name);

export function expressionRef(motion: Motion, name: string): ExpressionRef | undefined {
  return motion.expressions.find((e) => e.name === name);
}

/** The weight the motion gives `name` at time t (0 when it has no such expression), clamped to [0, 1] as players do. */
export function expressionWeightAt(motion: Motion, name: string, t: number): number {
  const ref = expressionRef(motion, name);
  if (!ref) return 0;
  const channel = findChannel(motion, ref.node, 'translation');
  const x = channel ? sampleChannel(channel, t, new Float64Array(3))[0] : restValue(motion, ref.node, 'translation')[0];
  return Math.min(1, Math.max(0, x));
}

/**
 * A key at t giving expression `name` the weight (clamped to [0, 1]); a key already at that time is
 * replaced. An expression the motion does not have yet gets a node (preset or custom by its name)
 * and a track; every other track is shared as it is.
 */
export function setExpressionKey(motion: Motion, name: string, t: number, weight: number): Motion {
  if (typeof name !== 'string' || !name.trim()) fail('BAD_PARAMETER', 'expression.noName');
  if (GAZE_EXPRESSIONS.has(name)) fail('BAD_PARAMETER', 'expression.gaze', { expression: name });
  requireFinite('weight', weight);
  const w = Math.min(1, Math.max(0, weight));
  const tf = keyTime(motion, t);
  let ref = expressionRef(motion, name);
  let next: Partial<Motion> = {};
  if (!ref) {
    const { gltf, index } = withRootNode(motion.gltf, { name: `expression_${name}` });
    ref = { name, preset: PRESETS.has(name), node: index };
    next = { gltf, expressions: [...motion.expressions, ref] };
  }
  const old = findChannel(motion, ref.node, 'translation');
  const value = old ? Float32Array.from(sampleChannel(old, tf, new Float64Array(3))) : restValue(motion, ref.node, 'translation');
  value[0] = w;
  return replaceChannel(motion, old, withKeyValue(old, ref.node, 'translation', tf, value), next);
}
