/**
 * `npm run fuzz`: 100,000 mutated real fixtures through readVrma (and writeVrma on what reads).
 * Every input must read or throw MotionError, each within 2 s. Prints the counts; exits 1 on a failure
 * with the recipe of the smallest failing input. FUZZ_RUNS and FUZZ_SEED override the defaults.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { checkInput, mutatedInput, seedOf, type Outcome } from './mutations';
import { richVrma } from '../unit/vrma/rawVrma';
import { quantizedSeed } from './quantizedSeeds';

const runs = Number(process.env.FUZZ_RUNS ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

// Same place tests/helpers/fixtures.ts uses (that module needs vitest, so it is not imported here).
const vrmaDir = resolve(__dirname, '..', '..', '..', 'shared', 'fixtures', 'vrma');
if (!existsSync(vrmaDir)) {
  console.error(`fuzz: real-data fixtures not found at ${vrmaDir} (they sit beside the repository)`);
  process.exit(1);
}
const names = readdirSync(vrmaDir).filter((f) => f.endsWith('.vrma')).sort();
const seeds = [
  ...names.map((f) => seedOf(f, new Uint8Array(readFileSync(join(vrmaDir, f))))),
  // The same files as `optimize --quantize` writes them (16-bit rotations, terse JSON).
  ...names.map((f) => quantizedSeed(f, new Uint8Array(readFileSync(join(vrmaDir, f))))),
  // Generated: the encodings the fixtures lack (quantized, strided, sparse, STEP, CUBICSPLINE, legacy lookAt).
  seedOf('generated rich.vrma', richVrma()),
];
const counts: Record<Outcome, number> = { read: 0, rejected: 0 };
let slowest = 0;
let slowestRecipe = '';
const start = performance.now();
try {
  fc.assert(
    fc.property(mutatedInput(seeds), (input) => {
      const t0 = performance.now();
      counts[checkInput(input.bytes, 2000)]++;
      const ms = performance.now() - t0;
      if (ms > slowest) {
        slowest = ms;
        slowestRecipe = `${input.seed} ${JSON.stringify(input.mutation)}`;
      }
    }),
    { numRuns: runs, seed },
  );
} catch (e) {
  console.error((e as Error).message);
  console.error(`fuzz: FAILED (seed ${seed})`);
  process.exit(1);
}
const total = counts.read + counts.rejected;
const seconds = (performance.now() - start) / 1000;
if (process.env.FUZZ_VERBOSE) console.log(`slowest input: ${slowestRecipe}`);
console.log(`fuzz: ${total} inputs from ${seeds.length} seed files (seed ${seed}): ${counts.read} read, ${counts.rejected} rejected with MotionError, 0 other errors; slowest ${slowest.toFixed(1)} ms, ${seconds.toFixed(1)} s total`);
