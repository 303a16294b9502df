/**
 * An avatar's rest skeleton, read from a .vrm (VRM 0.x or 1.0): the humanoid bones' world rest
 * positions from the glTF nodes, in the frame three-vrm-animation plays a .vrma in (facing +Z: a VRM
 * 0.x model, which faces -Z, is turned round the way VRMUtils.rotateVRM0 turns it). Only the bones'
 * positions matter: three-vrm's normalized rig has identity rest rotations at these positions.
 */
import type { Vec3 } from '../math/types';
import { fail } from '../errors';
import { parseGlb } from '../gltf/glb';
import { transformPoint } from '../math/mat4';
import { worldMatrices, type GltfNode } from '../vrma/restPose';
import { isHumanBoneName, type HumanBoneName } from '../vrm/humanBones';

export interface AvatarSkeleton {
  readonly version: '0' | '1';
  /** World rest position of every humanoid bone the avatar has (metres, facing +Z). */
  readonly positions: Readonly<Partial<Record<HumanBoneName, Vec3>>>;
  /** The hips' rest height (what three-vrm-animation scales the hips translation to). */
  readonly hipsHeight: number;
}

/** VRM 0.x names the thumb one joint further out than VRM 1.0 (three-vrm maps them the same way). */
const VRM0_THUMBS: Readonly<Record<string, HumanBoneName>> = {
  leftThumbProximal: 'leftThumbMetacarpal',
  leftThumbIntermediate: 'leftThumbProximal',
  rightThumbProximal: 'rightThumbMetacarpal',
  rightThumbIntermediate: 'rightThumbProximal',
};

export interface AvatarBones {
  readonly version: '0' | '1';
  /** The node of every humanoid bone (VRM 0.x thumbs under their VRM 1.0 names). */
  readonly boneToNode: Readonly<Partial<Record<HumanBoneName, number>>>;
}

/** Which node is which humanoid bone in a VRM's glTF JSON (VRMC_vrm 1.0 or VRM 0.x). */
export function avatarBoneNodes(json: { nodes?: unknown; extensions?: Record<string, unknown> } | null, name = 'the avatar'): AvatarBones {
  if (!json || typeof json !== 'object') fail('BAD_JSON', 'avatar.noJson', { file: name });
  const nodes = (Array.isArray(json.nodes) ? json.nodes : []) as GltfNode[];
  const ext = json.extensions ?? {};
  const boneToNode: Partial<Record<HumanBoneName, number>> = {};
  let version: '0' | '1';
  const v1 = ext.VRMC_vrm as { humanoid?: { humanBones?: Record<string, { node?: unknown }> } } | undefined;
  const v0 = ext.VRM as { humanoid?: { humanBones?: { bone?: unknown; node?: unknown }[] } } | undefined;
  const valid = (n: unknown): n is number => Number.isInteger(n) && (n as number) >= 0 && (n as number) < nodes.length;
  if (v1?.humanoid?.humanBones && typeof v1.humanoid.humanBones === 'object') {
    version = '1';
    for (const [bone, ref] of Object.entries(v1.humanoid.humanBones)) if (isHumanBoneName(bone) && valid(ref?.node)) boneToNode[bone] = ref.node;
  } else if (Array.isArray(v0?.humanoid?.humanBones)) {
    version = '0';
    for (const ref of v0.humanoid.humanBones) {
      if (typeof ref?.bone !== 'string' || !valid(ref.node)) continue;
      const bone = VRM0_THUMBS[ref.bone] ?? ref.bone;
      if (isHumanBoneName(bone)) boneToNode[bone] = ref.node;
    }
  } else {
    return fail('BAD_DATA', 'avatar.notVrm', { file: name });
  }
  if (boneToNode.hips === undefined) fail('BAD_DATA', 'avatar.noHips', { file: name });
  return { version, boneToNode };
}

export function readAvatarSkeleton(bytes: Uint8Array, name = 'the avatar'): AvatarSkeleton {
  const json = parseGlb(bytes).json as { nodes?: unknown; extensions?: Record<string, unknown> } | null;
  const { version, boneToNode } = avatarBoneNodes(json, name);
  const nodes = (Array.isArray(json!.nodes) ? json!.nodes : []) as GltfNode[];
  const world = worldMatrices(nodes);
  const positions: Partial<Record<HumanBoneName, Vec3>> = {};
  for (const [bone, node] of Object.entries(boneToNode) as [HumanBoneName, number][]) {
    const p = transformPoint(world[node], [0, 0, 0]);
    positions[bone] = version === '0' ? [-p[0], p[1], -p[2]] : p;
  }
  const hipsHeight = positions.hips![1];
  if (!(hipsHeight > 1e-3)) fail('BAD_DATA', 'avatar.hipsHeight', { file: name, height: hipsHeight });
  return { version, positions, hipsHeight };
}
