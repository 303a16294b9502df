/**
 * One entry point for every motion format the studio imports, chosen by file extension: BVH mocap,
 * MMD motions (.vmd) and poses (.vpd), FBX and glTF/GLB animations (one take: the first, or `take`),
 * and .vrma itself (read as is). Used by the studio, the CLI and
 * the batch workers alike.
 */
import type { Motion } from '../motion/types';
import { fail } from '../errors';
import { readVrma } from '../vrma/read';
import { convertBvh } from './bvh/convertBvh';
import type { BvhUnit } from './humanoid/bodyFrame';
import { convertVmd, convertVpd } from './mmd/index';
import { convertFbx } from './fbx/convertFbx';
import { convertGltf } from './gltf/convertGltf';
import { extensionOf, MOTION_EXTENSIONS } from './formats';

export type { BvhUnit } from './humanoid/bodyFrame';

export interface ConvertOptions {
  /** Output key rate (BVH: default the file's rate; VMD: default 30). */
  readonly fps?: number;
  /** The MMD model a .vmd/.vpd was made for (bone rest positions). */
  readonly pmx?: Uint8Array;
  /** Units of a .bvh file; default detected from the skeleton's size. */
  readonly unit?: BvhUnit;
  /** The take of an .fbx/.glb/.gltf to convert (AnimationStack or animation name); default the first. */
  readonly take?: string;
}

// The formats by extension are listed once, in formats.ts.
export { extensionOf, isMotionFile, MOTION_EXTENSIONS } from './formats';

export function convertToMotion(fileName: string, bytes: Uint8Array, opts: ConvertOptions = {}): Motion {
  const ext = extensionOf(fileName);
  switch (ext) {
    case '.bvh':
      return convertBvh(bytes, { fps: opts.fps, unit: opts.unit });
    case '.vmd':
      return convertVmd(bytes, { pmx: opts.pmx, fps: opts.fps });
    case '.vpd':
      return convertVpd(bytes, { pmx: opts.pmx });
    case '.fbx':
      return convertFbx(bytes, { fps: opts.fps, take: opts.take });
    case '.glb':
    case '.gltf':
      return convertGltf(bytes, { fps: opts.fps, take: opts.take });
    case '.vrma':
      return readVrma(bytes);
    default:
      return fail('UNSUPPORTED', `${fileName}: unknown motion format "${ext || '(no extension)'}"; expected ${MOTION_EXTENSIONS.join(', ')}`, 'convert.unknownFormat', { file: fileName, formats: MOTION_EXTENSIONS.join(', ') });
  }
}
