/**
 * Fuzz seeds in the quantized encoding (16-bit rotations, the compact rig, one-key constant tracks,
 * shared time and output accessors, terse JSON), which no fixture file uses.
 */
import type { Motion } from '../../shared/motion/types';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { optimize } from '../../shared/edits/optimize';
import { seedOf, type Seed } from '../../testkit/mutations';

/** The fixture optimized and written quantized, as `vrma-studio optimize --quantize` writes it. */
export function quantizedSeed(name: string, bytes: Uint8Array): Seed {
  return quantizedMotionSeed(name, readVrma(bytes.slice()));
}

/** A motion (e.g. a converted capture) optimized and written quantized. */
export function quantizedMotionSeed(name: string, motion: Motion): Seed {
  return seedOf(`${name} (quantized)`, writeVrma(optimize(motion, { quantize: true }), { quantize: true }));
}
