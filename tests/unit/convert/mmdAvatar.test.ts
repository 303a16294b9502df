/**
 * A converted MMD pose played on a real VRM 1.0 avatar (debug_robot.vrm) through three-vrm and
 * three-vrm-animation: the directions that matter come out right on an avatar, not only in our math.
 */
import { expect, it } from 'vitest';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, type VRM, type VRMHumanBoneName } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip, type VRMAnimation } from '@pixiv/three-vrm-animation';
import { convertVpd } from '../../../shared/convert/mmd';
import { fromAxisAngle } from '../../../shared/math/quat';
import { writeVrma } from '../../../shared/vrma/write';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { writeVpd } from '../../../testkit/mmdWriters';
import { withoutTextures } from '../../../testkit/avatarPlayback';

async function parse(bytes: Uint8Array) {
  const loader = new GLTFLoader();
  loader.register((p) => new VRMLoaderPlugin(p));
  loader.register((p) => new VRMAnimationLoaderPlugin(p));
  return loader.parseAsync(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer, '');
}

/** The avatar without its textures: Node has no image decoder, and bones are all this test needs. */
async function loadAvatar(): Promise<VRM> {
  return (await parse(withoutTextures(readFixture('vrm1', 'debug_robot.vrm')))).userData.vrm as VRM;
}

describeFixtures('MMD pose on a VRM avatar', () => {
  it("squats with knees forward, turns the head to the avatar's left, keeps A-stance arms", async () => {
    const vrm = await loadAvatar();
    const world = (b: VRMHumanBoneName) => vrm.humanoid.getRawBoneNode(b)!.getWorldPosition(new THREE.Vector3());
    vrm.scene.updateMatrixWorld(true);
    const restHips = world('hips').y;

    // MMD: センター 3 units down (a squat, feet held by IK), head turned 30° to the model's left.
    const turn = fromAxisAngle([0, 1, 0], (-30 * Math.PI) / 180);
    const motion = convertVpd(
      writeVpd({
        modelName: 'm',
        morphs: [],
        bones: [{ name: 'センター', position: [0, -3, 0], rotation: [0, 0, 0, 1] }, { name: '頭', position: [0, 0, 0], rotation: [...turn] as [number, number, number, number] }],
      }),
    );
    const animation = (await parse(writeVrma(motion))).userData.vrmAnimations[0] as VRMAnimation;
    const mixer = new THREE.AnimationMixer(vrm.scene);
    mixer.clipAction(createVRMAnimationClip(animation, vrm)).play();
    mixer.update(0);
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);

    // Hips lowered by 24 cm scaled to this avatar's hips height.
    const hipsDrop = restHips - world('hips').y;
    expect(hipsDrop).toBeCloseTo(0.24 * (restHips / motion.rest.hipsHeight), 2);
    for (const side of ['left', 'right'] as const) {
      const hip = world(`${side}UpperLeg`);
      const knee = world(`${side}LowerLeg`);
      const ankle = world(`${side}Foot`);
      // The avatar faces +Z: the knee sits in front of both the hip and the ankle.
      expect(knee.z).toBeGreaterThan(Math.max(hip.z, ankle.z) + 0.05);
      // A-stance: hands well below the shoulders.
      expect(world(`${side}Hand`).y).toBeLessThan(world(`${side}UpperArm`).y - 0.1);
    }
    const q = vrm.humanoid.getRawBoneNode('head')!.getWorldQuaternion(new THREE.Quaternion());
    const face = new THREE.Vector3(0, 0, 1).applyQuaternion(q);
    expect(face.x).toBeCloseTo(0.5, 2); // sin 30°, towards the avatar's left (+X)
    expect(face.z).toBeCloseTo(Math.sqrt(3) / 2, 2);
  });
});
