/**
 * The Blender runner itself (testkit/blender.ts): one headless launch with the VRM add-on imports
 * pixiv's test.vrma onto debug_robot and bakes it at the scene's fps (frame = t·fps + 1: 3 s at 30 fps
 * is frames 1-91), and a Python exception comes back as a BlenderError carrying the traceback. The same
 * runner without the add-on (the export proofs' importedPoses): Blender's own BVH importer, add-on off.
 */
import { expect, it } from 'vitest';
import { BlenderError, describeBlender, importedPoses, runBlender } from '../../../testkit/blender';
import { fixturePath } from '../../../testkit/fixtures';

describeBlender('Blender runner', () => {
  it('imports test.vrma onto debug_robot in one launch and returns the baked frames as JSON', async () => {
    const r = await runBlender<{ ok: boolean; frames: [number, number]; bones: number; upperArm: number[][] }>(
      `
def main(args):
    arm = load_avatar(args["avatar"])
    ok = import_vrma(arm, args["motion"], fps=30)
    frames = baked_frames(arm)
    s = sample(arm, [frames[0], frames[1]], ["rightUpperArm"])
    return {"ok": ok, "frames": frames, "bones": len(human_bones(arm)), "upperArm": [x["pose"]["rightUpperArm"] for x in s]}
`,
      { avatar: fixturePath('vrm1', 'debug_robot.vrm'), motion: fixturePath('vrma', 'test.vrma') },
    );
    expect(r.ok).toBe(true);
    expect(r.frames).toEqual([1, 91]);
    // debug_robot maps all 53 VRM 1.0 bones.
    expect(r.bones).toBe(53);
    // The upper arm's head does not move when the arm turns about it (within 1e-6 m).
    expect(Math.hypot(...r.upperArm[0].map((v, i) => v - r.upperArm[1][i]))).toBeLessThan(1e-6);
  });

  it('reports a Python exception as a BlenderError with the traceback', async () => {
    const e = await runBlender('def main(args):\n    raise ValueError("deliberate " + args["word"])', { word: 'failure' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(BlenderError);
    expect((e as Error).message).toMatch(/ValueError: deliberate failure/);
  });

  it("runs without the add-on when asked, and importedPoses samples Blender's own BVH import", async () => {
    const enabled = 'def main(args):\n    return "io_scene_vrm" in bpy.context.preferences.addons';
    expect(await runBlender<boolean>(enabled, {})).toBe(true);
    expect(await runBlender<boolean>(enabled, {}, { addon: false })).toBe(false);
    const poses = await importedPoses(fixturePath('bvh', 'cmu_12_01_walk.bvh'), 'bvh', 3, 1);
    // The cgspeed skeleton (fixtures README): its joints, each head sampled on 3 frames.
    expect(poses.names).toEqual(expect.arrayContaining(['Hips', 'LHipJoint', 'LeftUpLeg', 'LowerBack', 'Spine1']));
    expect(poses.heads.Hips).toHaveLength(9);
    expect(poses.action).not.toBeNull();
    // The walk moves the hips between frames 1 and 3 (more than 1 mm).
    expect(Math.hypot(poses.heads.Hips[6] - poses.heads.Hips[0], poses.heads.Hips[7] - poses.heads.Hips[1], poses.heads.Hips[8] - poses.heads.Hips[2])).toBeGreaterThan(1e-3);
  });
});
