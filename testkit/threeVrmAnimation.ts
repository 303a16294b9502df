/**
 * three-vrm-animation's reading of .vrma bytes, the reference our reader is checked against: the
 * studio's one loader (renderer/preview/referenceClip.ts) run in Node, plus its tracks as arrays.
 */
import type { VRMAnimation } from '@pixiv/three-vrm-animation';

export { loadVrmAnimation } from '../renderer/preview/referenceClip';

export interface ReferenceTrack {
  readonly times: Float32Array;
  readonly values: Float32Array;
}

/** three-vrm-animation's normalized rotation track per humanoid bone (x, y, z, w per key). */
export function normalizedRotationTracks(animation: VRMAnimation): Map<string, ReferenceTrack> {
  const out = new Map<string, ReferenceTrack>();
  for (const [bone, track] of animation.humanoidTracks.rotation) {
    out.set(bone, { times: Float32Array.from(track.times), values: Float32Array.from(track.values) });
  }
  return out;
}

/** three-vrm-animation's hips translation track (after the hips-parent transform), if any. */
export function hipsTranslationTrack(animation: VRMAnimation): ReferenceTrack | undefined {
  const track = animation.humanoidTracks.translation.get('hips');
  return track ? { times: Float32Array.from(track.times), values: Float32Array.from(track.values) } : undefined;
}
