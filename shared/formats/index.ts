/**
 * One entry point for every motion format the studio imports: BVH mocap, MMD motions (.vmd) and poses
 * (.vpd), FBX and glTF/GLB animations (one take: the first, or `take`), and .vrma itself (read as is).
 * The format comes from the table (formats.ts) and its reader from its codec (codecs.ts). Used by the
 * studio, the CLI and the batch workers alike.
 */
import type { Motion } from '../motion/types';
import { readMotion, type ConvertOptions } from './codecs';

export type { BvhUnit } from '../convert/humanoid/bodyFrame';
export type { ConvertOptions } from './codecs';

// The formats by extension are listed once, in formats.ts.
export { extensionOf, isMotionFile, MOTION_EXTENSIONS } from './formats';

export function convertToMotion(fileName: string, bytes: Uint8Array, opts: ConvertOptions = {}): Motion {
  return readMotion(fileName, bytes, opts);
}
