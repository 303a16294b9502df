import { describe, expect, it } from 'vitest';
import { Object3D, Quaternion, Vector3 } from 'three';
import type { VRMHumanBoneName } from '@pixiv/three-vrm';
import { makeMannequinVrm } from '../../../shared/assets/mannequin';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { HUMAN_BONE_NAMES } from '../../../shared/vrm/humanBones';
import { AdditiveOffsets } from '../../../renderer/bedroom/additiveOffsets';
import { SleepCycle } from '../../../renderer/bedroom/sleepCycle';
import { bedroomScene, type SceneOptions, type TestScene } from './nodeScene';

/** Rotation angle between two quaternions, accurate near zero (acos of a dot product is not). */
function angle(a: Quaternion, b: Quaternion): number {
  const r = a.clone().conjugate().multiply(b);
  return 2 * Math.atan2(Math.hypot(r.x, r.y, r.z), Math.abs(r.w));
}

/** 10,000 frames at 60 fps: asleep with turn-overs every 20 s, a nod every 97 frames, a wake-up and back to sleep. */
function runNight(s: TestScene, watch: Object3D): number {
  let t = 0;
  const cycle = new SleepCycle({ now: () => t, pose: 'back', autoTurn: true, autoSec: 20 });
  cycle.sleep();
  const start = watch.quaternion.clone();
  let maxOffset = 0;
  const dt = 1 / 60;
  for (let frame = 0; frame < 10_000; frame++) {
    t += dt;
    if (frame % 97 === 0) s.rig.nod();
    if (frame === 6000) cycle.wake();
    if (frame === 7000) cycle.sleep();
    const st = cycle.tick();
    s.rig.update(dt, { e: st.e, lb: st.lb });
    maxOffset = Math.max(maxOffset, angle(watch.quaternion, start));
  }
  return maxOffset;
}

function normalizedBones(s: TestScene): Object3D[] {
  return HUMAN_BONE_NAMES.map((b) => s.vrm.humanoid.getNormalizedBoneNode(b as VRMHumanBoneName)).filter((n): n is Object3D => !!n);
}

describe('additive offsets', () => {
  it('restore() gives back exactly the rotation before apply(), and refuses a double apply', () => {
    const bone = new Object3D();
    bone.quaternion.setFromAxisAngle(new Vector3(0.3, 1, 0.2).normalize(), 0.7);
    const base = bone.quaternion.clone();
    const o = new AdditiveOffsets();
    o.set(bone, new Quaternion().setFromAxisAngle(new Vector3(1, 0, 0), 0.2));
    o.add(bone, new Quaternion().setFromAxisAngle(new Vector3(0, 0, 1), -0.1));
    o.apply();
    expect(angle(bone.quaternion, base)).toBeGreaterThan(0.2);
    expect(() => o.apply()).toThrow(/twice/);
    o.restore();
    expect(bone.quaternion.equals(base)).toBe(true);
  });

  it('after 10,000 frames of breathing and nods, bones the mixer does not write are back at base (1e-6)', async () => {
    // An idle that only holds the hips leaves upperChest (breathing) to no clip at all.
    const stillIdle = buildMotion({ rotations: { hips: { times: new Float32Array([0, 1]), values: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1]) } } });
    const opts: SceneOptions = { idle: stillIdle };
    const s = await bedroomScene(makeMannequinVrm(), opts);
    const animated = s.rig.animatedNodeNames();
    const unwritten = normalizedBones(s).filter((n) => !animated.has(n.name));
    const base = new Map(unwritten.map((n) => [n, n.quaternion.clone()]));
    const upperChest = s.vrm.humanoid.getNormalizedBoneNode('upperChest')!;
    expect(base.has(upperChest)).toBe(true); // the offsets land on an unwritten bone, or the test would prove nothing

    const maxOffset = runNight(s, upperChest);
    expect(maxOffset).toBeGreaterThan((1 * Math.PI) / 180); // breathing really moved it
    s.rig.offsets.restore();
    let worst = 0;
    for (const [node, q] of base) worst = Math.max(worst, angle(node.quaternion, q));
    expect(worst).toBeLessThan(1e-6);
    console.info(
      `[bedroom] 10,000 frames, ${base.size} bones no clip writes: worst deviation ${worst.toExponential(2)} rad once offsets are removed (breathing reached ${
        ((maxOffset * 180) / Math.PI).toFixed(2)
      }° on upperChest)`,
    );
    // 10,000 frames each settled on the bed from the skin: minutes on a loaded machine (not a speed check).
  }, 600_000);

  it('with the real idle, every bone after removing the offsets equals a run without any offsets (1e-6)', async () => {
    // The mixer skips writing a value that did not change, so even animated bones held still by a
    // paused pose would gather offsets if they were not undone.
    const a = await bedroomScene(makeMannequinVrm());
    const b = await bedroomScene(makeMannequinVrm());
    b.rig.additiveEnabled = false;
    const head = a.vrm.humanoid.getNormalizedBoneNode('head')!;
    runNight(a, head);
    runNight(b, b.vrm.humanoid.getNormalizedBoneNode('head')!);
    a.rig.offsets.restore();
    // (B lies settled on the bed too: the rest's turns are offsets of their own, removed the same way.)
    b.rig.offsets.restore();
    const bonesA = normalizedBones(a);
    const bonesB = normalizedBones(b);
    let worst = 0;
    bonesA.forEach((n, i) => (worst = Math.max(worst, angle(n.quaternion, bonesB[i].quaternion))));
    expect(worst).toBeLessThan(1e-6);
    console.info(`[bedroom] real idle + poses, 10,000 frames: worst bone deviation from the offset-free run ${worst.toExponential(2)} rad`);
  }, 600_000);
});
