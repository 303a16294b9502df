/**
 * Breathing and nods: the additive offsets the bedroom lays over the mixer's pose each frame
 * (additiveOffsets.ts). Breathing shows only lying on the back; a nod (the head patted) plays once.
 */
import { Quaternion, Vector3 } from 'three';
import type { VRMHumanoid } from '@pixiv/three-vrm';
import type { AdditiveOffsets } from './additiveOffsets';

const BREATH_PERIOD = 4.2;
const BREATH_DEG = 1.6;
const NOD_SEC = 1.2;
const NOD_DEG = 16;
const X_AXIS = new Vector3(1, 0, 0);
const DEG = Math.PI / 180;

export class Breathing {
  private nodStart = -Infinity;
  private readonly tmpQ = new Quaternion();

  /** Start a nod at `time` (seconds of the rig's clock). */
  nod(time: number): void {
    this.nodStart = time;
  }

  /** True while a nod is playing at `time`. */
  nodding(time: number): boolean {
    const u = (time - this.nodStart) / NOD_SEC;
    return u >= 0 && u < 1;
  }

  /** The breathing phase at `time` (0..1 over one breath). */
  phase(time: number): number {
    return (time / BREATH_PERIOD) % 1;
  }

  /** Add this frame's breath (the back's share of the recline) and nod to `offsets`. */
  compose(offsets: AdditiveOffsets, h: VRMHumanoid, time: number, backShare: number): void {
    const breath = backShare * BREATH_DEG * DEG * Math.sin((2 * Math.PI * time) / BREATH_PERIOD);
    if (breath !== 0) {
      for (const name of ['spine', 'upperChest'] as const) {
        const bone = h.getNormalizedBoneNode(name);
        if (bone) offsets.add(bone, this.tmpQ.setFromAxisAngle(X_AXIS, -breath));
      }
    }
    const u = (time - this.nodStart) / NOD_SEC;
    if (u >= 0 && u < 1) {
      const nod = Math.sin(Math.PI * u) ** 2 * NOD_DEG * DEG;
      for (const [name, share] of [['neck', 0.4], ['head', 0.6]] as const) {
        const bone = h.getNormalizedBoneNode(name);
        if (bone) offsets.add(bone, this.tmpQ.setFromAxisAngle(X_AXIS, nod * share));
      }
    }
  }
}
