/**
 * The VRMC_vrm_animation extension of a VRMA file, cleaned so what the Motion keeps is consistent:
 * its spec version (missing, draft or unknown read as 1.0), the humanoid bones (unknown names, missing
 * or shared nodes dropped), the expressions and the lookAt node (each on a node of its own), every
 * change recorded as a warning.
 */
import type { ExpressionRef } from '../motion/types';
import { warning, type MotionWarning } from '../warnings';
import { isHumanBoneName, type HumanBoneName } from '../vrm/humanBones';
import { isObject } from '../gltf/document';

type Json = Record<string, unknown>;

const KNOWN_SPEC_VERSIONS = new Set(['1.0', '1.0-draft']);

export function isIndex(v: unknown, length: number): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < length;
}

export interface VrmaExtension {
  readonly specVersion: string;
  readonly boneToNode: Partial<Record<HumanBoneName, number>>;
  readonly nodeToBone: Map<number, HumanBoneName>;
  readonly expressions: ExpressionRef[];
  readonly expressionNodes: Map<number, ExpressionRef>;
  readonly lookAtNode: number | undefined;
  /** The extension as it is written back: what was dropped above is gone from it too. */
  readonly clean: Json;
}

/** The extension `ext` of a file with `nodeCount` nodes, cleaned (see the file comment). */
export function readExtension(ext: Json, nodeCount: number, warnings: MotionWarning[]): VrmaExtension {
  let specVersion: string;
  const rawSpec = ext.specVersion;
  if (rawSpec === undefined) {
    specVersion = '1.0';
    warnings.push(warning('specVersion is missing (a pre-release file); read as 1.0', 'vrma.specMissing'));
  } else if (typeof rawSpec === 'string' && KNOWN_SPEC_VERSIONS.has(rawSpec)) {
    specVersion = rawSpec;
    if (rawSpec !== '1.0') warnings.push(warning(`specVersion "${rawSpec}" is a draft; read as 1.0`, 'vrma.specDraft', { spec: rawSpec }));
  } else {
    specVersion = '1.0';
    warnings.push(warning(`unknown specVersion ${JSON.stringify(rawSpec)}; read as 1.0`, 'vrma.specUnknown', { spec: JSON.stringify(rawSpec) ?? 'undefined' }));
  }

  const boneToNode: Partial<Record<HumanBoneName, number>> = {};
  const nodeToBone = new Map<number, HumanBoneName>();
  const cleanBones: Json = {};
  const humanoid = ext.humanoid;
  const humanBones = isObject(humanoid) ? humanoid.humanBones : undefined;
  if (isObject(humanBones)) {
    for (const [name, def] of Object.entries(humanBones)) {
      const node = isObject(def) ? def.node : undefined;
      if (!isHumanBoneName(name)) {
        warnings.push(warning(`humanoid bone "${name}" is not a VRM 1.0 bone name; ignored`, 'vrma.boneNameUnknown', { bone: name }));
      } else if (!isIndex(node, nodeCount)) {
        warnings.push(
          warning(`humanoid bone ${name} points at node ${JSON.stringify(node)}, which does not exist; ignored`, 'vrma.boneNodeMissing', { bone: name, node: JSON.stringify(node) ?? 'undefined' }),
        );
      } else if (nodeToBone.has(node)) {
        warnings.push(
          warning(`humanoid bone ${name} shares node ${node} with ${nodeToBone.get(node)}; ignored`, 'vrma.boneNodeShared', { bone: name, node: String(node), other: String(nodeToBone.get(node)) }),
        );
      } else {
        boneToNode[name] = node;
        nodeToBone.set(node, name);
        cleanBones[name] = def;
      }
    }
  } else if (humanoid !== undefined) {
    warnings.push(warning('the humanoid section has no humanBones; no bones are mapped', 'vrma.noHumanBones'));
  }

  const expressions: ExpressionRef[] = [];
  const expressionNodes = new Map<number, ExpressionRef>();
  const cleanExpressions: Json = {};
  if (isObject(ext.expressions)) {
    for (const kind of ['preset', 'custom'] as const) {
      const group = ext.expressions[kind];
      if (group === undefined) continue;
      if (!isObject(group)) {
        warnings.push(warning(`expressions.${kind} is not an object; ignored`, 'vrma.expressionsNotObject', { kind }));
        continue;
      }
      const clean: Json = {};
      for (const [name, def] of Object.entries(group)) {
        const node = isObject(def) ? def.node : undefined;
        if (!isIndex(node, nodeCount) || expressionNodes.has(node) || nodeToBone.has(node)) {
          warnings.push(
            warning(`expression ${name} points at node ${JSON.stringify(node)}, which is missing or already used; ignored`, 'vrma.expressionNodeBad', {
              expression: name,
              node: JSON.stringify(node) ?? 'undefined',
            }),
          );
          continue;
        }
        const ref: ExpressionRef = { name, preset: kind === 'preset', node };
        expressions.push(ref);
        expressionNodes.set(node, ref);
        clean[name] = def;
      }
      cleanExpressions[kind] = clean;
    }
  }

  let lookAtNode: number | undefined;
  if (ext.lookAt !== undefined) {
    const node = isObject(ext.lookAt) ? ext.lookAt.node : undefined;
    if (isIndex(node, nodeCount) && !nodeToBone.has(node) && !expressionNodes.has(node)) lookAtNode = node;
    else warnings.push(warning(`lookAt points at node ${JSON.stringify(node)}, which is missing or already used; ignored`, 'vrma.lookAtNodeBad', { node: JSON.stringify(node) ?? 'undefined' }));
  }

  const clean: Json = { ...ext, specVersion };
  if (isObject(humanoid)) clean.humanoid = { ...humanoid, humanBones: cleanBones };
  if (isObject(ext.expressions)) clean.expressions = { ...ext.expressions, ...cleanExpressions };
  if (lookAtNode === undefined) delete clean.lookAt;
  return { specVersion, boneToNode, nodeToBone, expressions, expressionNodes, lookAtNode, clean };
}
