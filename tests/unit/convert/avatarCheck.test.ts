/**
 * Broken VRM avatars get a message naming the problem (three-vrm alone says "Cannot read properties of
 * undefined (reading 'name')" for a humanoid bone pointing at a missing node), every fixture avatar
 * passes the check, and a .glb of animations is told apart from an avatar.
 */
import { expect, it } from 'vitest';
import { parseGlb, packGlb } from '../../../shared/gltf/glb';
import { avatarProblem } from '../../../shared/avatar/avatarCheck';
import { gltfKind, isMotionGltf } from '../../../shared/formats/gltfKind';
import { describeFixtures, fixtureFiles, readFixture } from '../../../testkit/fixtures';
import { loadVrm } from '../assets/loadVrm';

function edited(folder: string, file: string, edit: (json: Record<string, any>) => void): Uint8Array {
  const g = parseGlb(readFixture(folder, file));
  const json = structuredClone(g.json) as Record<string, any>;
  edit(json);
  return packGlb(json, g.bin);
}

describeFixtures('broken VRM avatars', () => {
  it('every fixture avatar passes', () => {
    const files = [...fixtureFiles('vrm0', '.vrm'), ...fixtureFiles('vrm1', '.vrm')];
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const f of files) expect(avatarProblem(readFixture(...f.split('/fixtures/')[1].split('/'))), f).toBeUndefined();
  });

  it('a humanoid bone at a missing node: three-vrm fails cryptically, the check names the bone and the node', async () => {
    const bytes = edited('vrm0', 'triangle.vrm', (j) => (j.extensions.VRM.humanoid.humanBones[3].node = 9999));
    await expect(loadVrm(bytes)).rejects.toThrow(/Cannot read properties of undefined \(reading 'name'\)/);
    const bone = (parseGlb(readFixture('vrm0', 'triangle.vrm')).json as any).extensions.VRM.humanoid.humanBones[3].bone;
    const nodes = (parseGlb(readFixture('vrm0', 'triangle.vrm')).json as any).nodes.length;
    expect(avatarProblem(bytes)).toBe(`VRM 0.x: humanoid bone "${bone}" points at node 9999, but the file has ${nodes} nodes (0 to ${nodes - 1})`);
  });

  it('VRM 1.0: missing node, two bones on one node, no hips, no humanoid, a bad expression bind', () => {
    const v1 = (edit: (j: Record<string, any>) => void) => avatarProblem(edited('vrm1', 'debug_robot.vrm', edit));
    expect(v1((j) => (j.extensions.VRMC_vrm.humanoid.humanBones.leftHand.node = -1))).toMatch(/humanoid bone "leftHand" points at node -1/);
    expect(v1((j) => (j.extensions.VRMC_vrm.humanoid.humanBones.rightHand.node = j.extensions.VRMC_vrm.humanoid.humanBones.leftHand.node))).toMatch(/"leftHand" and "rightHand" both point at node/);
    expect(v1((j) => delete j.extensions.VRMC_vrm.humanoid.humanBones.hips)).toBe('VRM 1.0: required humanoid bone missing: hips');
    expect(v1((j) => delete j.extensions.VRMC_vrm.humanoid)).toMatch(/has no humanoid/);
    expect(v1((j) => (j.extensions.VRMC_vrm.expressions.preset.aa.morphTargetBinds = [{ node: 500, index: 0, weight: 1 }]))).toMatch(/expression "aa" binds node 500/);
  });

  it('a .glb of animations opens as a motion, a VRM (even with animations) as an avatar', () => {
    expect(isMotionGltf(readFixture('gltf', 'robot_expressive.glb'))).toBe(true);
    expect(isMotionGltf(readFixture('vrm1', 'debug_robot.vrm'))).toBe(false);
    expect(isMotionGltf(edited('vrm1', 'debug_robot.vrm', (j) => (j.animations = [{ channels: [], samplers: [] }])))).toBe(false);
    expect(isMotionGltf(new Uint8Array([1, 2, 3]))).toBe(false);
    expect(avatarProblem(readFixture('gltf', 'robot_expressive.glb'))).toMatch(/plain glTF model, not a VRM avatar/);
  });

  it('gltfKind: motion, avatar, or a VRM with animations (the studio asks which)', () => {
    expect(gltfKind(readFixture('gltf', 'kaykit_rig_medium_general.glb'))).toBe('motion');
    expect(gltfKind(readFixture('vrm1', 'debug_robot.vrm'))).toBe('avatar');
    expect(gltfKind(readFixture('vrm0', 'sphere.vrm'))).toBe('avatar');
    expect(gltfKind(edited('vrm1', 'debug_robot.vrm', (j) => (j.animations = [{ channels: [], samplers: [] }])))).toBe('avatarWithAnimations');
    expect(gltfKind(edited('vrm0', 'sphere.vrm', (j) => (j.animations = [{ channels: [], samplers: [] }])))).toBe('avatarWithAnimations');
    expect(gltfKind(new Uint8Array([1, 2, 3]))).toBe('avatar');
  });
});
