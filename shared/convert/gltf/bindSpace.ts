/**
 * Which space a skin's inverse bind matrices are in. Two conventions meet in real files: the glTF spec's
 * (and Blender's) inverse bind matrices are the joints' world bind pose, FBX2glTF's are relative to the
 * skinned mesh node. The one that agrees with the joints' own default pose is the file's: a mesh node
 * under a scaled or turned armature tells them apart (a Blender Mixamo GLB's mesh sits under the armature's
 * X+90° and 0.01, so reading its binds in mesh space doubled both: the rest hips stood 0.0094 m high and
 * the figure lay on its back); with the mesh at the origin they are the same.
 */
import type { Mat4 } from '../../motion/types';
import { multiply, MAT4_IDENTITY } from '../../math/mat4';

/** True when `meshWorld · bind` matches the joints' default worlds better than `bind` does. */
export function bindsInMeshSpace(binds: readonly [number, Mat4][], meshWorld: Mat4, worldDefault: (node: number) => Mat4): boolean {
  // Scale first (an animation frame left as the default pose turns joints but rarely scales them),
  // then the whole linear part when the mesh node does not scale.
  const scaleGap = scaleDistance(binds, meshWorld, worldDefault) - scaleDistance(binds, MAT4_IDENTITY, worldDefault);
  if (Math.abs(scaleGap) > 0.1 * binds.length) return scaleGap < 0;
  return linearDistance(binds, meshWorld, worldDefault) < linearDistance(binds, MAT4_IDENTITY, worldDefault);
}

/** How far bind matrices (each `space · bind`) are from the joints' default worlds: linear parts, relative. */
function linearDistance(binds: readonly [number, Mat4][], space: Mat4, worldDefault: (node: number) => Mat4): number {
  let sum = 0;
  for (const [j, inv] of binds) {
    const a = multiply(space, inv), d = worldDefault(j);
    let diff = 0, size = 0;
    for (const k of [0, 1, 2, 4, 5, 6, 8, 9, 10]) {
      diff += (a[k] - d[k]) ** 2;
      size += d[k] ** 2;
    }
    sum += Math.sqrt(diff / (size || 1));
  }
  return sum;
}

/** How far bind matrices' volume scales are from the joints' default worlds': |log| of the ratio, summed. */
function scaleDistance(binds: readonly [number, Mat4][], space: Mat4, worldDefault: (node: number) => Mat4): number {
  const volume = (m: Mat4) => Math.abs(m[0] * (m[5] * m[10] - m[9] * m[6]) - m[4] * (m[1] * m[10] - m[9] * m[2]) + m[8] * (m[1] * m[6] - m[5] * m[2])) || 1e-300;
  let sum = 0;
  for (const [j, inv] of binds) sum += Math.abs(Math.log(volume(multiply(space, inv)) / volume(worldDefault(j)))) / 3;
  return sum;
}
