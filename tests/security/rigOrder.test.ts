/**
 * Issue 16, finding 4: topologicalOrder (shared/convert/mmd/rig.ts) walked each bone's whole parent
 * chain, quadratic when parents come after children: a crafted PMX of 300k bones kept `convert --pmx`
 * busy for more than 30 s. It now works each depth out once. The cost is counted, not timed: reads
 * of `.parent` over a reversed chain of N bones (before: N(N+1)/2, after: at most 2N).
 */
import { describe, expect, it } from 'vitest';
import { topologicalOrder } from '../../shared/convert/mmd/rig';
import { MotionError } from '../../shared/errors';

/** Bone i's parent is i+1 (children first); the last bone is the root. Counts every `.parent` read. */
function reversedChain(n: number): { bones: { parent: number }[]; reads: () => number } {
  let reads = 0;
  const bones = Array.from({ length: n }, (_, i) => ({
    get parent() {
      reads++;
      return i === n - 1 ? -1 : i + 1;
    },
  }));
  return { bones, reads: () => reads };
}

/** The definition: sort by depth, then index (what the quadratic version produced). */
function byDefinition(parents: readonly number[]): number[] {
  const depth = parents.map((_, i) => {
    let d = 0;
    for (let p = parents[i]; p !== -1; p = parents[p]) d++;
    return d;
  });
  return parents.map((_, i) => i).sort((a, b) => depth[a] - depth[b] || a - b);
}

describe('security: bone order in linear time (finding 4)', () => {
  it('reads each parent a bounded number of times on a reversed chain', () => {
    const n = 20_000;
    const chain = reversedChain(n);
    const order = topologicalOrder(chain.bones, 'BAD_PMX');
    expect(order[0]).toBe(n - 1);
    expect(order[n - 1]).toBe(0);
    // Before: 200,010,000 reads (n(n+1)/2). After: one per bone, plus the stop at a known parent.
    expect(chain.reads()).toBeLessThanOrEqual(2 * n);
  });

  it('orders 300k reversed bones, parents first', () => {
    const n = 300_000;
    const bones = Array.from({ length: n }, (_, i) => ({ parent: i === n - 1 ? -1 : i + 1 }));
    const order = topologicalOrder(bones, 'BAD_PMX');
    const seen = new Uint8Array(n);
    for (const b of order) {
      const p = bones[b].parent;
      expect(p === -1 || seen[p] === 1).toBe(true);
      seen[b] = 1;
    }
  });

  it('gives the same order as the definition on random trees, and refuses cycles', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
    for (let t = 0; t < 50; t++) {
      const n = 1 + Math.floor(rnd() * 60);
      // A random forest with parents anywhere in the list: shuffle a tree built parents-first.
      const perm = Array.from({ length: n }, (_, i) => i).sort(() => rnd() - 0.5);
      const parentOf = Array.from({ length: n }, (_, k) => (k === 0 || rnd() < 0.1 ? -1 : Math.floor(rnd() * k)));
      const parents = new Array<number>(n);
      for (let k = 0; k < n; k++) parents[perm[k]] = parentOf[k] === -1 ? -1 : perm[parentOf[k]];
      expect(Array.from(topologicalOrder(parents.map((parent) => ({ parent })), 'BAD_PMX'))).toEqual(byDefinition(parents));
    }
    expect(() => topologicalOrder([{ parent: 1 }, { parent: 2 }, { parent: 0 }], 'BAD_PMX')).toThrow(MotionError);
    expect(() => topologicalOrder([{ parent: -1 }, { parent: 1 }], 'BAD_PMX')).toThrow(/cycle/);
  });
});
