/**
 * `npm run fuzz`: first the browser host's inputs (tests/fuzz/hostInputs.ts): 100,000 hostile wire
 * messages through decodeWire and 100,000 damaged argument lists through every route's validation
 * (FUZZ_HOST_RUNS); then 100,000 mutated real fixtures through readVrma (and writeVrma on what reads);
 * then 100,000 damaged FBX files through the FBX converter (tests/fuzz/fbxMutations.ts).
 * Every input must read or throw MotionError, each within 2 s. Prints the counts; exits 1 on a failure
 * with the recipe of the smallest failing input. FUZZ_RUNS and FUZZ_SEED override the defaults.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import { checkInput, mutatedInput, seedOf, type Outcome } from '../../testkit/mutations';
import { richVrma } from '../../testkit/rawVrma';
import { argsInput, checkArgs, checkWire, wireInput } from './hostInputs';
import { STUDIO_INVOKE_METHODS } from '../../shared/contract/studioApi';
import { checkFbx, fbxSeeds, mutatedFbx } from './fbxMutations';
import { quantizedSeed } from './quantizedSeeds';
import { foldedChainVrma, glbOfJsonText } from '../security/hostileReaders';

const runs = Number(process.env.FUZZ_RUNS ?? 100_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const hostRuns = Number(process.env.FUZZ_HOST_RUNS ?? 100_000);

{
  const t0 = performance.now();
  const wire = { decoded: 0, rejected: 0 };
  const args = { accepted: 0, refused: 0 };
  try {
    fc.assert(fc.property(wireInput, (b) => void wire[checkWire(b)]++), { numRuns: hostRuns, seed });
    fc.assert(fc.property(argsInput, (a) => void args[checkArgs(a)]++), { numRuns: hostRuns, seed });
  } catch (e) {
    console.error((e as Error).message);
    console.error(`fuzz: host inputs FAILED (seed ${seed})`);
    process.exit(1);
  }
  console.log(
    `fuzz: host: ${hostRuns} wire messages (${wire.decoded} decoded, ${wire.rejected} rejected with WireError), ` +
      `${hostRuns} argument lists over ${STUDIO_INVOKE_METHODS.length} methods (${args.accepted} accepted, ${args.refused} refused with BAD_ARGUMENT), ` +
      `0 other errors, ${((performance.now() - t0) / 1000).toFixed(1)} s (seed ${seed})`,
  );
}

// Same place testkit/fixtures.ts uses (that module needs vitest, so it is not imported here).
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
  // Issue 24's probes: hips below folded translation nodes, JSON nested past the depth limit.
  seedOf('generated folded chain.vrma', foldedChainVrma(200)),
  seedOf('generated deep JSON.vrma', glbOfJsonText(`{"asset":{"version":"2.0"},"extras":${'['.repeat(300)}${']'.repeat(300)}}`)),
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
console.log(
  `fuzz: ${total} inputs from ${seeds.length} seed files (seed ${seed}): ${counts.read} read, ${counts.rejected} rejected with MotionError, 0 other errors; slowest ${slowest.toFixed(1)} ms, ${
    seconds.toFixed(1)
  } s total`,
);

// FBX: the same number of damaged files through the FBX converter, each within 2 s.
const fbxCounts = { converted: 0, rejected: 0 };
let fbxSlowest = 0;
const fbxStart = performance.now();
try {
  fc.assert(
    fc.property(mutatedFbx(fbxSeeds()), (input) => {
      const t0 = performance.now();
      fbxCounts[checkFbx(input.bytes)]++;
      const ms = performance.now() - t0;
      fbxSlowest = Math.max(fbxSlowest, ms);
      if (ms > 2000) throw new Error(`took ${ms.toFixed(0)} ms`);
    }),
    { numRuns: runs, seed },
  );
} catch (e) {
  console.error((e as Error).message);
  console.error(`fuzz (FBX): FAILED (seed ${seed})`);
  process.exit(1);
}
console.log(
  `fuzz (FBX): ${
    fbxCounts.converted + fbxCounts.rejected
  } damaged FBX files (seed ${seed}): ${fbxCounts.converted} converted, ${fbxCounts.rejected} rejected with MotionError, 0 other errors; slowest ${fbxSlowest.toFixed(1)} ms, ${
    ((performance.now() - fbxStart) / 1000).toFixed(1)
  } s total`,
);
