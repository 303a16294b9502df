/**
 * A plain humanoid glTF (no VRM extension: a Mixamo, Blender or other rig with its meshes) used as an
 * avatar. Its bones are found as the glTF converter finds a source skeleton's (humanoid/recognize.ts:
 * Mixamo, Blender and other names, else the topology), and it is taken to face +Z like a VRM 1.0.
 * The GLB export bakes onto those bones (export/glbWriter.ts); the studio previews the avatar as the
 * same file with a VRMC_vrm humanoid added (plainAvatarAsVrm), so three-vrm plays the motion on the
 * very nodes and rest transforms the export writes to.
 */
import { packGlb, parseGlb } from '../../gltf/glb';
import { HUMAN_BONE_NAMES, type HumanBoneName } from '../../vrm/humanBones';
import { readGltf } from './convertGltf';

type Json = Record<string, unknown>;

/** Whether a glTF's JSON declares a VRM (0.x or 1.0). */
export function isVrmJson(json: Json): boolean {
  const ext = json.extensions as Json | undefined;
  return !!ext && typeof ext === 'object' && (ext.VRMC_vrm !== undefined || ext.VRM !== undefined);
}

/** Node of every humanoid bone the recognition finds in a plain glTF (a clear MotionError when none). */
export function plainHumanoidBones(bytes: Uint8Array): Partial<Record<HumanBoneName, number>> {
  const source = readGltf(bytes);
  const { bones } = source.rig();
  const boneToNode: Partial<Record<HumanBoneName, number>> = {};
  for (const [bone, joint] of Object.entries(bones) as [HumanBoneName, number][]) boneToNode[bone] = source.skeleton.nodeOf[joint];
  return boneToNode;
}

/**
 * The plain glTF binary as a VRM 1.0: the same nodes, meshes and buffer, with a VRMC_vrm humanoid of
 * the recognised bones and a minimal meta naming the file (nothing else of VRM is claimed: no
 * expressions, no lookAt). A VRM is returned unchanged.
 */
export function plainAvatarAsVrm(bytes: Uint8Array, name: string): Uint8Array {
  const parts = parseGlb(bytes);
  const json = JSON.parse(JSON.stringify(parts.json)) as Json;
  if (isVrmJson(json)) return bytes;
  const found = plainHumanoidBones(bytes);
  // Parents first, as VRM files list them.
  const humanBones = Object.fromEntries(HUMAN_BONE_NAMES.filter((b) => found[b] !== undefined).map((b) => [b, { node: found[b] }]));
  const ext = ((json.extensions as Json | undefined) ??= {}) as Json;
  ext.VRMC_vrm = {
    specVersion: '1.0',
    meta: { name: name.replace(/\.[^.]+$/, ''), authors: ['unknown'], licenseUrl: 'https://vrm.dev/licenses/1.0/' },
    humanoid: { humanBones },
  };
  json.extensions = ext;
  json.extensionsUsed = [...(Array.isArray(json.extensionsUsed) ? (json.extensionsUsed as string[]) : []), 'VRMC_vrm'];
  return packGlb(json, parts.bin);
}
