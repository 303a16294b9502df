/**
 * A measurement on the live rig that leaves the drawn frame as it was. The pose report measures a
 * lying pose at full weight on the avatar that is on screen (the same skin, the same solver); it runs
 * inside a frame, after the rig has posed it and before it is drawn. Without this the frame was drawn
 * with the report's pose undone but not the frame's (no rest turns, no breathing): a one-frame pop at
 * each turn-over's start, up to 29 cm into the mattress on sphere.vrm (issue 28).
 * Kept: every node's transform under the holder, the additive offsets' bases, the spring bones' tails.
 */
import type { Object3D } from 'three';
import type { AdditiveOffsets } from './additiveOffsets';
import type { RigSprings } from './rigSprings';

export interface LiveRig {
  readonly holder: Object3D;
  readonly offsets: AdditiveOffsets;
  readonly springs: RigSprings;
}

export function keepFrame<T>(rig: LiveRig, measure: () => T): T {
  const nodes: Object3D[] = [];
  rig.holder.traverse((o) => nodes.push(o));
  const saved = new Float64Array(nodes.length * 10);
  nodes.forEach((n, i) => {
    n.position.toArray(saved, i * 10);
    n.quaternion.toArray(saved, i * 10 + 3);
    n.scale.toArray(saved, i * 10 + 7);
  });
  const offsets = rig.offsets.appliedState();
  const springs = rig.springs.capture();
  try {
    return measure();
  } finally {
    nodes.forEach((n, i) => {
      n.position.fromArray(saved, i * 10);
      n.quaternion.fromArray(saved, i * 10 + 3);
      n.scale.fromArray(saved, i * 10 + 7);
      // Spring-bone joints do not update their own matrix (three-vrm turns matrixAutoUpdate off).
      n.updateMatrix();
    });
    rig.offsets.reinstate(offsets);
    rig.springs.restore(springs);
    rig.holder.updateMatrixWorld(true);
  }
}
