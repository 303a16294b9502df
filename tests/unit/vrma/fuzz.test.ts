import { expect, it } from 'vitest';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';
import { checkInput, mutatedInput, seedOf, type Outcome } from '../../../testkit/mutations';
import { quantizedMotionSeed, quantizedSeed } from '../../fuzz/quantizedSeeds';
import { convertToMotion } from '../../../shared/formats';
import { richVrma, simpleVrma } from '../../../testkit/rawVrma';
import { foldedChainVrma } from '../../security/hostileReaders';

describeFixtures('fuzzing readVrma over the real fixtures', () => {
  it('every mutated input reads or throws MotionError (5000 cases; the slowest input is timed in bench/services.bench.ts)', () => {
    const files = fixtureFiles('vrma', '.vrma');
    const seeds = [
      ...files.map((f) => seedOf(basename(f), new Uint8Array(readFileSync(f)))),
      ...files.map((f) => quantizedSeed(basename(f), new Uint8Array(readFileSync(f)))),
      // Converted captures in the smaller layout: a bone pose of one-key tracks sharing outputs (BVH),
      // expression-only and mostly-constant MMD motions on the compact rig (VMD).
      ...[...fixtureFiles('bvh', 'standard_skeleton.bvh'), ...fixtureFiles('vmd', '00_normal.vmd'), ...fixtureFiles('vmd', 'mei_happiness.vmd')].map((f) =>
        quantizedMotionSeed(basename(f), convertToMotion(basename(f), new Uint8Array(readFileSync(f))))
      ),
      seedOf('generated', simpleVrma()),
      seedOf('rich', richVrma()),
      // Issue 24: hips below 200 folded translation nodes (the compact rig's walk).
      seedOf('folded chain', foldedChainVrma(200)),
    ];
    const counts: Record<Outcome, number> = { read: 0, rejected: 0 };
    fc.assert(
      fc.property(mutatedInput(seeds), ({ bytes }) => {
        counts[checkInput(bytes)]++; // a hang still fails at the test timeout
      }),
      { numRuns: 5000, seed: 20261129 },
    );
    // Both outcomes happen: the mutations are neither all harmless nor all fatal.
    expect(counts.read).toBeGreaterThan(100);
    expect(counts.rejected).toBeGreaterThan(100);
  });
});
