/**
 * Whether a .glb/.gltf opens as a motion rather than an avatar: it carries animations and is not a VRM
 * (a VRM with animations is still an avatar first). Reads only the JSON; false for anything unreadable.
 * Kept apart from the converters so the studio's first chunk can ask without loading them.
 */
import { isGlb, parseGlb } from '../gltf/glb';

export function isMotionGltf(bytes: Uint8Array): boolean {
  try {
    const json = (isGlb(bytes) ? parseGlb(bytes).json : JSON.parse(new TextDecoder().decode(bytes))) as Record<string, unknown>;
    const ext = (json.extensions ?? {}) as Record<string, unknown>;
    return Array.isArray(json.animations) && json.animations.length > 0 && !('VRM' in ext) && !('VRMC_vrm' in ext);
  } catch {
    return false;
  }
}
