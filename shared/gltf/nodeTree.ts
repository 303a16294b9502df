/**
 * Cycle check of a glTF node tree given as each node's parent (-1 for roots), in one linear pass:
 * each node is walked up once, marked as on the current walk (1) and then as reaching a root (2),
 * so a 100k-deep chain costs 100k steps. A walk per node with a step guard was O(n x depth): a
 * 3.7 MB chain took 44 s (issue 24, finding 5).
 */

/** A node that is its own ancestor, or -1 when the parents form a forest. */
export function nodeInCycle(parent: ArrayLike<number>): number {
  const n = parent.length;
  const state = new Uint8Array(n);
  const path: number[] = [];
  for (let i = 0; i < n; i++) {
    for (let p = i; p >= 0 && state[p] !== 2; p = parent[p]) {
      if (state[p] === 1) return p;
      state[p] = 1;
      path.push(p);
    }
    for (const p of path) state[p] = 2;
    path.length = 0;
  }
  return -1;
}
