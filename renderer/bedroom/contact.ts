/**
 * How the body meets the bed, as plain math on joint positions in the bed's frame
 * ([along toward the head, height above the mattress top, across], see placement.ts toBedFrame):
 * the lowest joint over the mattress (how far the body floats), how deep any joint is inside the
 * mattress (penetration), and whether the head is on or beside the pillow. The rig uses the same
 * outline to rest the blended pose each frame; tests and the pose report read the figures.
 */
import type { Vec3 } from '../../shared/motion/types';
import { toBedFrame, type BedLayout } from './placement';

/** Beside the pillow: the head may rest this far past its edges and still count. */
export const PILLOW_MARGIN = 0.12;

export interface Contact {
  /** Joints whose ground point lies inside the mattress outline. */
  readonly overMattress: number;
  /** Height of the lowest joint over the mattress above its top (metres); null when none is over it. */
  readonly lowest: number | null;
  /** Depth of the deepest joint inside the mattress (0 when none is inside). */
  readonly penetration: number;
  /** Depth of the deepest joint below the floor (0 when none). */
  readonly underFloor: number;
  /** The head over the pillow's outline grown by PILLOW_MARGIN (sinking is `penetration`'s business). */
  readonly headOnPillow: boolean;
  /** Names of joints outside the mattress outline. */
  readonly offBed: readonly string[];
}

export function insideOutline(p: Vec3, bed: BedLayout, margin = 0): boolean {
  return Math.abs(p[0]) <= bed.length / 2 + margin && Math.abs(p[2]) <= bed.width / 2 + margin;
}

/** `joints` in the bed's frame; `floorY` is the floor's height relative to the mattress top (negative). */
export function contactOf(joints: Readonly<Record<string, Vec3 | undefined>>, bed: BedLayout, floorY: number): Contact {
  let lowest: number | null = null;
  let penetration = 0;
  let underFloor = 0;
  let overMattress = 0;
  const offBed: string[] = [];
  for (const [name, p] of Object.entries(joints)) {
    if (!p) continue;
    underFloor = Math.max(underFloor, floorY - p[1]);
    if (!insideOutline(p, bed)) {
      offBed.push(name);
      continue;
    }
    overMattress++;
    if (lowest === null || p[1] < lowest) lowest = p[1];
    // Inside the mattress block: below its top and above its underside (the frame below is the bed too).
    if (p[1] < 0 && p[1] > floorY) penetration = Math.max(penetration, -p[1]);
  }
  const head = joints.head ?? joints.neck;
  let headOnPillow = false;
  if (head) {
    const pillow = toBedFrame(bed.pillowCenter, bed);
    headOnPillow = Math.abs(head[0] - pillow[0]) <= bed.pillowLength / 2 + PILLOW_MARGIN && Math.abs(head[2] - pillow[2]) <= bed.pillowWidth / 2 + PILLOW_MARGIN;
  }
  return { overMattress, lowest, penetration, underFloor, headOnPillow, offBed };
}
