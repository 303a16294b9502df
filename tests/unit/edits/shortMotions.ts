/**
 * The real short motions the key-reduction and quantization tests run on: every fixture .vrma and
 * every BVH and VMD fixture that converts (menu_rotation.vmd animates no humanoid bone: it is the
 * converter's error case, not a motion). The VMDs come as every frame: these tests are about
 * reducing dense keys, and a VMD imported with its own keys (the default since issue 27) keeps its
 * Bézier keys, which Optimize leaves alone.
 */
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import type { Motion } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { convertToMotion } from '../../../shared/formats';
import { convertVmd } from '../../../shared/convert/mmd';
import { fixtureFiles } from '../../../testkit/fixtures';

const NOT_MOTIONS = new Set(['menu_rotation.vmd']);

export function shortMotionFiles(): string[] {
  return [...fixtureFiles('vrma', '.vrma'), ...fixtureFiles('bvh', '.bvh'), ...fixtureFiles('vmd', '.vmd')].filter((f) => !NOT_MOTIONS.has(basename(f)));
}

export function loadShortMotion(file: string): Motion {
  const bytes = new Uint8Array(readFileSync(file));
  if (file.endsWith('.vmd')) return convertVmd(bytes, { keys: 'everyFrame' });
  return file.endsWith('.vrma') ? readVrma(bytes) : convertToMotion(basename(file), bytes);
}
