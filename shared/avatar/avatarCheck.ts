/**
 * Finds what is wrong with a VRM file before three-vrm reads it, so a broken avatar gets a message
 * that names the problem instead of three-vrm's "Cannot read properties of undefined (reading 'name')":
 * humanoid bones pointing at nodes that do not exist (or two bones at one node), no hips bone, expressions/blend shapes pointing at missing nodes or meshes. Works on the glTF JSON only.
 */
import { isGlb, parseGlb, refuseCostlyJson } from '../gltf/glb';
import { MotionError, englishDetailText } from '../errors';
import { isObject, type Json } from '../gltf/json';

const list = (o: Json, k: string): unknown[] => (Array.isArray(o[k]) ? (o[k] as unknown[]) : []);

/**
 * Bones the studio cannot do without. The spec requires more, but three-vrm plays avatars missing
 * arms or legs (the VRM sample "cube man"), so only the hips, which every motion moves, is insisted on.
 */
const REQUIRED = ['hips'];

/** The first problem found, as a sentence (its detail in the catalogue's English); undefined when the file looks loadable (or is not a glTF). */
export function avatarProblem(bytes: Uint8Array): string | undefined {
  const e = avatarCheck(bytes);
  return e?.detail && englishDetailText(e.detail, e.params);
}

/**
 * The first problem found as a MotionError (returned, not thrown): its catalogue detail
 * (`errorDetail.avatar.*`), which the studio words in its language and the CLI in English.
 * Counts and node indices travel as text, written as the file has them (no digit grouping).
 */
export function avatarCheck(bytes: Uint8Array): MotionError | undefined {
  let json: unknown;
  try {
    if (!isGlb(bytes)) refuseCostlyJson(bytes, {}, 'the glTF JSON');
    json = isGlb(bytes) ? parseGlb(bytes).json : JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    const reason = (e as Error).message;
    return new MotionError('BAD_JSON', 'avatar.unreadable', { reason });
  }
  if (!isObject(json)) return new MotionError('BAD_JSON', 'avatar.jsonNotObject');
  const nodes = list(json, 'nodes');
  const meshes = list(json, 'meshes');
  const ext = isObject(json.extensions) ? json.extensions : {};
  const nodeRef = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < nodes.length;
  const bones = new Map<string, unknown>();
  const count = String(nodes.length);
  let version: string;
  if (isObject(ext.VRMC_vrm)) {
    version = 'VRM 1.0';
    const humanoid = ext.VRMC_vrm.humanoid;
    if (!isObject(humanoid) || !isObject(humanoid.humanBones)) return noHumanoid(version, 'VRMC_vrm.humanoid.humanBones');
    for (const [bone, v] of Object.entries(humanoid.humanBones)) bones.set(bone, isObject(v) ? v.node : undefined);
    const expressions = isObject(ext.VRMC_vrm.expressions) ? ext.VRMC_vrm.expressions : {};
    for (const group of ['preset', 'custom'] as const) {
      const g = expressions[group];
      if (!isObject(g)) continue;
      for (const [name, e] of Object.entries(g)) {
        for (const bind of isObject(e) ? list(e, 'morphTargetBinds') : []) {
          if (isObject(bind) && !nodeRef(bind.node)) {
            const node = String(JSON.stringify(bind.node));
            return new MotionError('BAD_GLTF', 'avatar.expressionNode', { version, name, node, count });
          }
        }
      }
    }
  } else if (isObject(ext.VRM)) {
    version = 'VRM 0.x';
    const humanoid = ext.VRM.humanoid;
    if (!isObject(humanoid) || !Array.isArray(humanoid.humanBones)) return noHumanoid(version, 'VRM.humanoid.humanBones');
    for (const b of humanoid.humanBones) {
      if (!isObject(b) || typeof b.bone !== 'string') return new MotionError('NO_HUMANOID', 'avatar.boneNoName', { version });
      bones.set(b.bone, b.node);
    }
    const master = isObject(ext.VRM.blendShapeMaster) ? ext.VRM.blendShapeMaster : {};
    for (const g of list(master, 'blendShapeGroups')) {
      if (!isObject(g)) continue;
      for (const bind of list(g, 'binds')) {
        const mesh = isObject(bind) ? bind.mesh : undefined;
        if (!(typeof mesh === 'number' && Number.isInteger(mesh) && mesh >= 0 && mesh < meshes.length)) {
          const [name, index, meshCount] = [String(g.name ?? g.presetName ?? '?'), String(JSON.stringify(mesh)), String(meshes.length)];
          return new MotionError('BAD_GLTF', 'avatar.blendShapeMesh', { version, name, mesh: index, count: meshCount });
        }
      }
    }
  } else {
    return new MotionError('NO_HUMANOID', 'avatar.plainGltf');
  }
  const seen = new Map<number, string>();
  for (const [bone, node] of bones) {
    if (!nodeRef(node)) {
      const [at, last] = [String(JSON.stringify(node)), String(nodes.length - 1)];
      return new MotionError('BAD_GLTF', 'avatar.boneNode', { version, bone, node: at, count, last });
    }
    const other = seen.get(node as number);
    if (other !== undefined) {
      return new MotionError('BAD_GLTF', 'avatar.sharedNode', { version, first: other, second: bone, node: String(node) });
    }
    seen.set(node as number, bone);
  }
  const missing = REQUIRED.filter((b) => !bones.has(b));
  if (missing.length) {
    const names = missing.join(', ');
    return new MotionError('NO_HUMANOID', 'avatar.missingBones', { version, count: missing.length, bones: names });
  }
  return undefined;
}

function noHumanoid(version: string, path: string): MotionError {
  return new MotionError('NO_HUMANOID', 'avatar.noHumanoid', { version, path });
}
