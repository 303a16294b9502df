/**
 * How the body's skin meets the bed, part by part (issue 28): the skinned points of the pose as drawn
 * (bodySurface.ts) against the bed's surface (shared/bedroom/bedSurface.ts), for the tests and the
 * pose report. The placement itself still rests the body on its joints (placement.ts); these figures
 * say where that leaves the skin.
 */
import type { Object3D } from 'three';
import type { VRM } from '@pixiv/three-vrm';
import { contactsOf, type BedShape, type PartContact } from '../../shared/bedroom/bedSurface';
import { BODY_PARTS, BodySurface, type BodyPart } from './bodySurface';
import { toBedFrame, type BedLayout } from './placement';

export type PartContacts = Readonly<Record<BodyPart, PartContact>>;

/** The bed of a layout as the surface math sees it (bed frame). */
export function bedShapeOf(bed: BedLayout, floorY: number): BedShape {
  const p = toBedFrame(bed.pillowCenter, bed);
  return {
    length: bed.length, width: bed.width, floor: floorY - bed.mattressTop,
    pillowAlong: p[0], pillowAcross: p[2], pillowLength: bed.pillowLength, pillowWidth: bed.pillowWidth, pillowHeight: p[1],
  };
}

export class BodyRest {
  readonly surface: BodySurface;
  readonly shape: BedShape;

  constructor(
    readonly vrm: VRM,
    readonly roomRoot: Object3D,
    readonly bed: BedLayout,
    floorY: number,
  ) {
    this.surface = new BodySurface(vrm, roomRoot, bed);
    this.shape = bedShapeOf(bed, floorY);
  }

  /** The lowest gap of the whole body over what is under it (cached subset). */
  lowestGap(): number {
    const pts = this.surface.sample();
    return contactsOf(this.shape, pts.xyz, new Uint8Array(pts.count), 1)[0].gap;
  }

  /** Each part's contact as posed now; `all` measures every vertex, not only the cached subset. */
  contacts(which: 'subset' | 'all' = 'all'): PartContacts {
    const pts = this.surface.sample(which);
    const list = contactsOf(this.shape, pts.xyz, pts.part, BODY_PARTS.length, pts.count);
    return Object.fromEntries(BODY_PARTS.map((p, i) => [p, list[i]])) as Record<BodyPart, PartContact>;
  }
}
