/**
 * The bed as a surface, in the bed's frame ([along toward the head, up from the mattress top,
 * across], metres): a mattress flat inside its outline with a rounded top edge, a soft pillow on it
 * whose height falls off smoothly to its edges, the floor everywhere else. The room builds the
 * mattress's and the pillow's meshes from these height functions (renderer/bedroom/room.ts), so what
 * the avatar touches is what is drawn. And the contact of a sampled body
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
  /** Radius of the mattress's rounded top edge (0 or absent: a sharp box edge). */
  readonly rim?: number;
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
  // Called for every skin point at every trial turn of the rest solver: off the pillow first, no pow.
  const u = (2 * (along - bed.pillowAlong)) / bed.pillowLength;
  if (u >= 1 || u <= -1) return 0;
  const v = (2 * (across - bed.pillowAcross)) / bed.pillowWidth;
  if (v >= 1 || v <= -1) return 0;
  const u2 = u * u;
  const v2 = v * v;
  return bed.pillowHeight * Math.sqrt(1 - u2 * u2 * u2) * Math.sqrt(1 - v2 * v2 * v2);
}

/**
 * Height of the mattress's top at a point inside its outline: 0 on the flat, falling by a quarter
 * circle of radius `rim` over the last `rim` to the edge (a sphere's eighth at the corners), the
 * shape of a rounded box.
 */
export function mattressHeightAt(bed: BedShape, along: number, across: number): number {
  const r = bed.rim ?? 0;
  if (r <= 0) return 0;
  const ex = Math.abs(along) - (bed.length / 2 - r);
  const ez = Math.abs(across) - (bed.width / 2 - r);
  if (ex <= 0 && ez <= 0) return 0;
  const q = Math.hypot(Math.max(ex, 0), Math.max(ez, 0));
  return q >= r ? -r : Math.sqrt(r * r - q * q) - r;
}

/** Height of what is under a point: the mattress (and the pillow on it) inside the outline, else the floor. */
export function supportHeight(bed: BedShape, along: number, across: number): number {
  return overMattress(bed, along, across) ? mattressHeightAt(bed, along, across) + pillowHeightAt(bed, along, across) : bed.floor;
}

export function overMattress(bed: BedShape, along: number, across: number): boolean {
  return Math.abs(along) <= bed.length / 2 && Math.abs(across) <= bed.width / 2;
}

/** What is under a point and the height of its top. */
export function supportAt(bed: BedShape, along: number, across: number): { height: number; surface: Surface } {
  if (!overMattress(bed, along, across)) return { height: bed.floor, surface: 'floor' };
  const p = pillowHeightAt(bed, along, across);
  const m = mattressHeightAt(bed, along, across);
  return p > 0 ? { height: m + p, surface: 'pillow' } : { height: m, surface: 'mattress' };
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
