/** Fuzz seeds in the quantized encoding (16-bit rotations, terse JSON), which no fixture file uses. */
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { optimize } from '../../shared/edits/optimize';
import { seedOf, type Seed } from './mutations';

/** The fixture optimized and written quantized, as `vrma-studio optimize --quantize` writes it. */
export function quantizedSeed(name: string, bytes: Uint8Array): Seed {
  return seedOf(`${name} (quantized)`, writeVrma(optimize(readVrma(bytes.slice()), { quantize: true }), { quantize: true }));
}
