/**
 * A plain humanoid glTF as the studio's avatar (issue 26): the studio's loader (loadAvatar) gives it
 * a VRM 1.0 humanoid of the recognised bones and three-vrm plays a .vrma on it exactly as on the VRM
 * it was made from (debug_robot: the same nodes and rest transforms), so the preview shows what the
 * GLB export bakes. A glTF with no humanoid in it is refused with the converter's own words.
 */
import { expect, it } from 'vitest';
import type { HumanBoneName } from '../../../shared/vrm/humanBones';
import { plainAvatarAsVrm } from '../../../shared/convert/gltf/plainAvatar';
import { avatarBoneNodes } from '../../../shared/avatar/avatarSkeleton';
import { packGlb, parseGlb } from '../../../shared/gltf/glb';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { loadTestAvatar, playedPoses } from '../../../testkit/avatarPlayback';
import { plainRobot } from '../../../testkit/plainRobot';

describeFixtures('a plain humanoid glTF as the avatar', () => {
  it('gets a VRM 1.0 humanoid on the very nodes debug_robot names', () => {
    const plain = plainRobot();
    const vrm = parseGlb(plainAvatarAsVrm(plain.bytes, 'robot.glb')).json as Record<string, unknown>;
    const { version, boneToNode } = avatarBoneNodes(vrm);
    expect(version).toBe('1');
    // Every humanoid bone of debug_robot the recognition can tell by name (eyes and toes included).
    for (const [bone, node] of Object.entries(plain.boneToNode) as [HumanBoneName, number][]) if (boneToNode[bone] !== undefined) expect(boneToNode[bone], bone).toBe(node);
    expect(Object.keys(boneToNode).length).toBeGreaterThanOrEqual(40);
  });

  // The rotation tolerance is the harness's floor: debug_robot.vrm's own bytes, repacked and played
  // beside the original, differ by 0.0157° (arms and feet, measured), so 0.05°.
  it('three-vrm plays idle_loop on it as on debug_robot.vrm: every raw bone within 1e-6 m and 0.05°', async () => {
    const vrma = readFixture('vrma', 'idle_loop.vrma');
    const times = Float64Array.from({ length: 60 }, (_, i) => i / 15);
    const ours = await playedPoses(await loadTestAvatar(plainRobot().bytes, 'robot.glb'), vrma, times);
    const ref = await playedPoses(await loadTestAvatar(readFixture('vrm1', 'debug_robot.vrm'), 'debug_robot'), vrma, times);
    let pos = 0;
    let rot = 0;
    let compared = 0;
    ref.forEach((pose, f) => {
      for (const [bone, want] of Object.entries(pose) as [HumanBoneName, { position: readonly number[]; rotation: readonly number[] }][]) {
        const got = ours[f][bone]!;
        pos = Math.max(pos, Math.hypot(...got.position.map((v, k) => v - want.position[k])));
        const d = Math.abs(got.rotation.reduce((a, v, k) => a + v * want.rotation[k], 0));
        rot = Math.max(rot, (2 * Math.acos(Math.min(1, d)) * 180) / Math.PI);
        compared++;
      }
    });
    expect(compared).toBe(60 * 15);
    expect(pos).toBeLessThan(1e-6);
    expect(rot).toBeLessThan(0.05);
  });

  it('refuses a glTF with no humanoid skeleton, saying so', async () => {
    const { json, bin } = parseGlb(plainRobot().bytes) as { json: Record<string, any>; bin: Uint8Array };
    json.nodes.forEach((n: Record<string, unknown>) => delete n.children);
    json.scenes[0].nodes = json.nodes.map((_: unknown, i: number) => i);
    await expect(loadTestAvatar(packGlb(json, bin), 'flat.glb')).rejects.toThrow(/flat\.glb: .*(skeleton|humanoid|hips)/i);
  });
});
