/**
 * What a .glb/.gltf is before it is opened: a motion (animations, not a VRM), an avatar (a VRM, or a
 * model without animations), or a VRM avatar that also carries animations (the studio asks which the
 * user means; the CLI converts the animations). Reads only the JSON; 'avatar' for anything unreadable,
 * so the avatar loader reports what is wrong, except a JSON too costly to parse (too many containers or
 * too deep, found before JSON.parse by glb.ts refuseCostlyJson), which is refused here with its reason. Kept apart from the converters so the studio's first
 * chunk can ask without loading them.
 */
import { isGlb, parseGlb, refuseCostlyJson } from '../gltf/glb';
import { MotionError } from '../errors';

/** refuseCostlyJson's refusals: reasons, not a broken avatar. */
const COSTLY = new Set(['glb.jsonContainers', 'gltf.jsonContainers', 'json.tooDeep']);

export type GltfKind = 'motion' | 'avatar' | 'avatarWithAnimations';

export function gltfKind(bytes: Uint8Array): GltfKind {
  try {
    if (!isGlb(bytes)) refuseCostlyJson(bytes, {}, 'the glTF JSON');
    const json = (isGlb(bytes) ? parseGlb(bytes).json : JSON.parse(new TextDecoder().decode(bytes))) as Record<string, unknown>;
    const ext = (json.extensions ?? {}) as Record<string, unknown>;
    const animated = Array.isArray(json.animations) && json.animations.length > 0;
    const vrm = 'VRM' in ext || 'VRMC_vrm' in ext;
    return animated ? (vrm ? 'avatarWithAnimations' : 'motion') : 'avatar';
  } catch (e) {
    if (e instanceof MotionError && COSTLY.has(e.detail ?? '')) throw e;
    return 'avatar';
  }
}

/** Whether a .glb/.gltf opens as a motion without asking: animations and no VRM. */
export function isMotionGltf(bytes: Uint8Array): boolean {
  return gltfKind(bytes) === 'motion';
}
