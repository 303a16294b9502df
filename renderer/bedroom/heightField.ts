/**
 * Grid surfaces over the bed (the mattress's top, the pillow, the blanket): node (i, j) of an
 * ni x nj grid, two triangles a cell, positions written by the caller (the blanket rewrites them on
 * each drawn frame, into the same buffer). And the bed's frame back to the room root's.
 */
import { BufferAttribute, BufferGeometry } from 'three';
import type { BedLayout } from './placement';

export function gridGeometry(ni: number, nj: number): BufferGeometry {
  const g = new BufferGeometry();
  g.setAttribute('position', new BufferAttribute(new Float32Array(ni * nj * 3), 3));
  const index: number[] = [];
  for (let i = 0; i + 1 < ni; i++) {
    for (let j = 0; j + 1 < nj; j++) {
      const a = i * nj + j;
      index.push(a, a + 1, a + nj, a + 1, a + nj + 1, a + nj);
    }
  }
  g.setIndex(index);
  return g;
}

/** A point of the bed's frame [along, up from the mattress top, across] in the room root's frame, into out[k..k+2]. */
export function bedToRoot(bed: BedLayout, along: number, up: number, across: number, out: Float32Array | number[], k: number): void {
  const u = bed.headDir;
  const m = bed.mattressCenter;
  // across v = (-u.z, 0, u.x), as placement.ts toBedFrame.
  out[k] = m[0] + along * u[0] - across * u[2];
  out[k + 1] = bed.mattressTop + up;
  out[k + 2] = m[2] + along * u[2] + across * u[0];
}

/**
 * n coordinates from -half to half, spaced finely near both ends (within `edge` of them) where a
 * rounded rim bends, evenly between.
 */
export function edgeSpaced(half: number, edge: number, nEdge: number, nMid: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < nEdge; k++) out.push(-half + edge * (1 - Math.cos((Math.PI / 2) * (k / nEdge))));
  for (let k = 0; k <= nMid; k++) out.push(-half + edge + ((2 * (half - edge)) * k) / nMid);
  for (let k = nEdge - 1; k >= 0; k--) out.push(half - edge * (1 - Math.cos((Math.PI / 2) * (k / nEdge))));
  return out;
}

/** Fill a grid geometry from a height function over coordinates (bed frame) and set its normals. */
export function fillGrid(g: BufferGeometry, bed: BedLayout, along: readonly number[], across: readonly number[], height: (a: number, c: number) => number): void {
  const pos = g.getAttribute('position') as BufferAttribute;
  const arr = pos.array as Float32Array;
  along.forEach((a, i) => across.forEach((c, j) => bedToRoot(bed, a, height(a, c), c, arr, (i * across.length + j) * 3)));
  pos.needsUpdate = true;
  g.computeVertexNormals();
  g.computeBoundingSphere();
}
