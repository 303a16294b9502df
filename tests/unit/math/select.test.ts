/** kthSmallest against a sort, over random, sorted, reversed and constant arrays with ties (exact). */
import { expect, it } from 'vitest';
import fc from 'fast-check';
import { kthSmallest } from '../../../shared/math/select';

it('kthSmallest gives the number a sort puts at k (property test, 300 arrays)', () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -1e6, max: 1e6, noNaN: true }), { minLength: 1, maxLength: 400 }), fc.nat(), fc.constantFrom('random', 'sorted', 'reversed', 'ties'), (xs, kSeed, layout) => {
      let a = xs;
      if (layout === 'sorted') a = [...xs].sort((p, q) => p - q);
      if (layout === 'reversed') a = [...xs].sort((p, q) => q - p);
      if (layout === 'ties') a = xs.map((x) => Math.round(x / 3e5));
      const k = kSeed % a.length;
      const sorted = Float64Array.from(a).sort();
      // + 0: a sort and a selection may pick either of -0 and +0, the same number.
      expect(kthSmallest(Float64Array.from(a), k) + 0).toBe(sorted[k] + 0);
    }),
    { numRuns: 300 },
  );
});
