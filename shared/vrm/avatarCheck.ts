/**
 * Finds what is wrong with a VRM file before three-vrm reads it, so a broken avatar gets a message
 * that names the problem instead of three-vrm's "Cannot read properties of undefined (reading 'name')":
 * humanoid bones pointing at nodes that do not exist (or two bones at one node), no hips bone, expressions/blend shapes pointing at missing nodes or meshes. Works on the glTF JSON only.
 */
import { isGlb, parseGlb } from '../gltf/glb';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (o: Json, k: string): unknown[] => (Array.isArray(o[k]) ? (o[k] as unknown[]) : []);

/**
 * Bones the studio cannot do without. The spec requires more, but three-vrm plays avatars missing
 * arms or legs (the VRM sample "cube man"), so only the hips, which every motion moves, is insisted on.
 */
const REQUIRED = ['hips'];

/** The first problem found, as a sentence; undefined when the file looks loadable (or is not a glTF). */
export function avatarProblem(bytes: Uint8Array): string | undefined {
  let json: unknown;
  try {
    json = isGlb(bytes) ? parseGlb(bytes).json : JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    return `the file is not a readable glTF/VRM (${(e as Error).message})`;
  }
  if (!isObject(json)) return 'the glTF JSON is not an object';
  const nodes = list(json, 'nodes');
  const meshes = list(json, 'meshes');
  const ext = isObject(json.extensions) ? json.extensions : {};
  const nodeRef = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n >= 0 && n < nodes.length;
  const bones = new Map<string, unknown>();
  let version: string;
  if (isObject(ext.VRMC_vrm)) {
    version = 'VRM 1.0';
    const humanoid = ext.VRMC_vrm.humanoid;
    if (!isObject(humanoid) || !isObject(humanoid.humanBones)) return `${version}: the file has no humanoid (VRMC_vrm.humanoid.humanBones is missing)`;
    for (const [bone, v] of Object.entries(humanoid.humanBones)) bones.set(bone, isObject(v) ? v.node : undefined);
    const expressions = isObject(ext.VRMC_vrm.expressions) ? ext.VRMC_vrm.expressions : {};
    for (const group of ['preset', 'custom'] as const) {
      const g = expressions[group];
      if (!isObject(g)) continue;
      for (const [name, e] of Object.entries(g)) {
        for (const bind of isObject(e) ? list(e, 'morphTargetBinds') : []) {
          if (isObject(bind) && !nodeRef(bind.node)) return `${version}: expression "${name}" binds node ${JSON.stringify(bind.node)}, but the file has ${nodes.length} nodes`;
        }
      }
    }
  } else if (isObject(ext.VRM)) {
    version = 'VRM 0.x';
    const humanoid = ext.VRM.humanoid;
    if (!isObject(humanoid) || !Array.isArray(humanoid.humanBones)) return `${version}: the file has no humanoid (VRM.humanoid.humanBones is missing)`;
    for (const b of humanoid.humanBones) {
      if (!isObject(b) || typeof b.bone !== 'string') return `${version}: a humanoid bone entry has no bone name`;
      bones.set(b.bone, b.node);
    }
    const master = isObject(ext.VRM.blendShapeMaster) ? ext.VRM.blendShapeMaster : {};
    for (const g of list(master, 'blendShapeGroups')) {
      if (!isObject(g)) continue;
      for (const bind of list(g, 'binds')) {
        const mesh = isObject(bind) ? bind.mesh : undefined;
        if (!(typeof mesh === 'number' && Number.isInteger(mesh) && mesh >= 0 && mesh < meshes.length)) {
          return `${version}: blend shape "${String(g.name ?? g.presetName ?? '?')}" binds mesh ${JSON.stringify(mesh)}, but the file has ${meshes.length} meshes`;
        }
      }
    }
  } else {
    return 'the file has no VRM data (no VRMC_vrm or VRM extension): it is a plain glTF model, not a VRM avatar';
  }
  const seen = new Map<number, string>();
  for (const [bone, node] of bones) {
    if (!nodeRef(node)) return `${version}: humanoid bone "${bone}" points at node ${JSON.stringify(node)}, but the file has ${nodes.length} nodes (0 to ${nodes.length - 1})`;
    const other = seen.get(node as number);
    if (other !== undefined) return `${version}: humanoid bones "${other}" and "${bone}" both point at node ${node}`;
    seen.set(node as number, bone);
  }
  const missing = REQUIRED.filter((b) => !bones.has(b));
  if (missing.length) return `${version}: required humanoid bone${missing.length === 1 ? '' : 's'} missing: ${missing.join(', ')}`;
  return undefined;
}
