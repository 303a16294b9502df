/**
 * The bed as a surface, in the bed's frame ([along toward the head, up from the mattress top,
 * across], metres): a flat mattress inside its outline, a soft pillow on it whose height falls off
 * smoothly to its edges, the floor everywhere else. The room builds the pillow's mesh from the same
 * height function, so what the avatar touches is what is drawn. And the contact of a sampled body
 * with it, part by part: how far each part floats above what is under it, or how deep it is inside.
 * Pure math (the vertices come from renderer/bedroom/bodySurface.ts).
 */

export interface BedShape {
  readonly length: number;
  readonly width: number;
  /** The floor's height in this frame (negative: below the mattress top). */
  readonly floor: number;
  /** Pillow centre along and across, its extent, and its height at the centre above the mattress. */
  readonly pillowAlong: number;
  readonly pillowAcross: number;
  readonly pillowLength: number;
  readonly pillowWidth: number;
  readonly pillowHeight: number;
}

export type Surface = 'pillow' | 'mattress' | 'floor';

/**
 * The pillow's cross-section, 1 in the middle and 0 at the edge (t = -1..1): flat over most of it
 * and rounded at the rim, the shape of a stuffed cushion.
 */
export function cushion(t: number): number {
  const a = Math.abs(t);
  return a >= 1 ? 0 : Math.sqrt(1 - a ** 6);
}

/** Height of the pillow's top above the mattress at a point (0 off the pillow). */
export function pillowHeightAt(bed: BedShape, along: number, across: number): number {
  const u = (2 * (along - bed.pillowAlong)) / bed.pillowLength;
  const v = (2 * (across - bed.pillowAcross)) / bed.pillowWidth;
  return bed.pillowHeight * cushion(u) * cushion(v);
}

export function overMattress(bed: BedShape, along: number, across: number): boolean {
  return Math.abs(along) <= bed.length / 2 && Math.abs(across) <= bed.width / 2;
}

/** What is under a point and the height of its top. */
export function supportAt(bed: BedShape, along: number, across: number): { height: number; surface: Surface } {
  if (!overMattress(bed, along, across)) return { height: bed.floor, surface: 'floor' };
  const p = pillowHeightAt(bed, along, across);
  return p > 0 ? { height: p, surface: 'pillow' } : { height: 0, surface: 'mattress' };
}

/** How one part meets the bed: its lowest point relative to what is under it. */
export interface PartContact {
  /** Height of the part's lowest point above what is under it (negative: inside it), metres. */
  readonly gap: number;
  /** What is under that point. */
  readonly surface: Surface;
  /** The part's deepest point inside the mattress or pillow (0 when none is inside), metres. */
  readonly inside: number;
  /** What the deepest point is inside. */
  readonly insideOf: Surface;
  /** Points of the part over the mattress outline, and in all. */
  readonly overBed: number;
  readonly points: number;
}

/**
 * The contact of each labelled group of points (xyz triplets in the bed's frame; `labels[i]` is point
 * i's group, 0..groups-1), in one pass. A point beside the bed but below the mattress top hangs over
 * the edge: it is measured against the floor, not the mattress.
 */
export function contactsOf(bed: BedShape, xyz: ArrayLike<number>, labels: ArrayLike<number>, groups: number, count = labels.length): PartContact[] {
  const gap = new Array<number>(groups).fill(Infinity);
  const surface = new Array<Surface>(groups).fill('floor');
  const inside = new Array<number>(groups).fill(0);
  const insideOf = new Array<Surface>(groups).fill('mattress');
  const overBed = new Array<number>(groups).fill(0);
  const points = new Array<number>(groups).fill(0);
  for (let i = 0; i < count; i++) {
    const l = labels[i];
    const a = xyz[i * 3], y = xyz[i * 3 + 1], c = xyz[i * 3 + 2];
    const s = supportAt(bed, a, c);
    const g = y - s.height;
    points[l]++;
    if (s.surface !== 'floor') {
      overBed[l]++;
      // Only what is above the mattress's underside is inside it (lower is the frame under the bed).
      if (g < 0 && y > bed.floor && -g > inside[l]) {
        inside[l] = -g;
        // Through the pillow and below the mattress top is inside the mattress.
        insideOf[l] = s.surface === 'pillow' && y >= 0 ? 'pillow' : 'mattress';
      }
    }
    if (g < gap[l]) {
      gap[l] = g;
      surface[l] = s.surface;
    }
  }
  return gap.map((g, l) => ({ gap: Number.isFinite(g) ? g : 0, surface: surface[l], inside: inside[l], insideOf: insideOf[l], overBed: overBed[l], points: points[l] }));
}

/** The contact of one group of points. */
export function partContact(bed: BedShape, xyz: ArrayLike<number>, count = xyz.length / 3): PartContact {
  return contactsOf(bed, xyz, new Uint8Array(count), 1, count)[0];
}
