/**
 * A plain humanoid glTF made from debug_robot (no fixture is one): the VRM extensions stripped, the
 * humanoid nodes renamed `mixamorig:Hips`..., every other node renamed to say nothing.
 */
import { avatarBoneNodes } from '../shared/avatar/avatarSkeleton';
import { mixamoName } from '../shared/export/boneNames';
import { packGlb, parseGlb } from '../shared/gltf/glb';
import type { HumanBoneName } from '../shared/vrm/humanBones';
import { readFixture } from './fixtures';

type Json = Record<string, any>;

/** debug_robot as a plain glTF with Mixamo names on its humanoid nodes; the node of each bone. */
export function plainRobot(): { bytes: Uint8Array; boneToNode: Partial<Record<HumanBoneName, number>> } {
  const { json, bin } = parseGlb(readFixture('vrm1', 'debug_robot.vrm')) as { json: Json; bin: Uint8Array };
  const { boneToNode } = avatarBoneNodes(json);
  json.nodes.forEach((n: Json, i: number) => (n.name = `part_${i}`));
  for (const [bone, node] of Object.entries(boneToNode) as [HumanBoneName, number][]) json.nodes[node].name = `mixamorig:${mixamoName(bone)}`;
  const vrmExt = (e: string) => e.startsWith('VRM');
  for (const o of [json, ...(json.materials ?? [])]) {
    for (const e of Object.keys(o.extensions ?? {})) if (vrmExt(e)) delete o.extensions[e];
    if (o.extensions && !Object.keys(o.extensions).length) delete o.extensions;
  }
  for (const k of ['extensionsUsed', 'extensionsRequired']) if (json[k]) json[k] = json[k].filter((e: string) => !vrmExt(e));
  return { bytes: packGlb(json, bin), boneToNode };
}
