/**
 * Blender's files in the studio (issue 25). In headless Blender the VRM add-on's own exporter
 * (`export_scene.vrma`) writes a motion made there: debug_robot with three bones keyed, the happy
 * expression keyed, and the add-on's look-at target (an empty) moving in front of it. The add-on writes
 * its conventions: the gaze as the translation of a target node, the armature in a root node, every
 * frame baked.
 *
 * Then: the studio reads the file (shared/vrma/read.ts) with the bones, the expression and the gaze
 * intact, the gaze converted to the spec's rotation (within 0.5° of the direction from the eyes to the
 * target); three-vrm-animation refuses the file as it is (a translated lookAt) but plays our write of
 * it as Blender posed it (limbs p95 within 0.01°, max 0.05°; weights within 0.01; gaze within 0.5°);
 * and the add-on imports our write back to the same pose and weights (its gaze reader wants a target
 * translation, so the gaze does not come back: reported by the compatibility check).
 */
import { beforeAll, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { angleDeg, describeBlender, limbAngles, quantile, runBlender, sub3 as sub } from '../../../testkit/blender';
import { fixturePath } from '../../../testkit/fixtures';
import { loadTestAvatar, playedStates } from '../../../testkit/avatarPlayback';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { readVrma } from '../../../shared/vrma/read';
import { checkCompatibility } from '../../../shared/vrma/compat';
import { writeVrma } from '../../../shared/vrma/write';
import { expressionWeightAt } from '../../../shared/edits/expressionKeys';
import { lookAtAt } from '../../../shared/edits/lookAtKeys';
import { HUMAN_BONE_NAMES } from '../../../shared/vrm/humanBones';
import type { Motion } from '../../../shared/motion/types';

const FPS = 30;
const FRAMES = 31;
const LIMB_P95_DEG = 0.01;
/** Blender's float32 acos on nearly-still bones (see blenderMatrix.test.ts). */
const LIMB_MAX_DEG = 0.05;
const WEIGHT_TOLERANCE = 0.01;
const GAZE_TOLERANCE_DEG = 0.5;
/** The check's findings (shared/vrma/compat.ts) on the add-on's file and on our write of it. */
const EXPORT_FINDINGS = ['spec:eyeBones', 'threeVrm:throwsOnPath', 'blender:gazeTranslation', 'univrm:noGaze'];
const OUR_WRITE_FINDINGS = ['spec:eyeBones', 'blender:gazeRotationIgnored', 'univrm:noGaze'];

interface Sample {
  frame: number;
  pose: Record<string, number[]>;
  expressions: Record<string, number>;
  target: number[] | null;
}

/** Keys in Blender's own terms: pose-bone quaternions (w, x, y, z), the expression preview, the target's location (Z up). */
const MAKE = `
import math
def aa(axis, deg):
    return Quaternion(Vector(axis).normalized(), math.radians(deg))

def main(args):
    arm = load_avatar(args["avatar"])
    sc = bpy.context.scene
    sc.render.fps = ${FPS}
    sc.render.fps_base = 1.0
    sc.frame_start = 1
    sc.frame_end = ${FRAMES}
    names = human_bones(arm)
    keys = {
        "rightUpperArm": [(1, aa((1, 0, 0), 0)), (16, aa((0, 0, 1), 50)), (31, aa((1, 0.3, 0), -35))],
        "leftLowerArm": [(1, aa((0, 0, 1), 10)), (16, aa((0, 0, 1), 70)), (31, aa((1, 0, 0), 20))],
        "rightUpperLeg": [(1, aa((1, 0, 0), 0)), (16, aa((1, 0, 0), 40)), (31, aa((0, 0, 1), -15))],
    }
    for bone, frames in keys.items():
        pb = arm.pose.bones[names[bone]]
        pb.rotation_mode = "QUATERNION"
        for f, q in frames:
            pb.rotation_quaternion = q
            pb.keyframe_insert(data_path="rotation_quaternion", frame=f)
    happy = ext(arm).expressions.all_name_to_expression_dict()["happy"]
    for f, w in ((1, 0.0), (16, 1.0), (31, 0.3)):
        happy.preview = w
        happy.keyframe_insert(data_path="preview", frame=f)
    target = bpy.data.objects.new("GazeTarget", None)
    sc.collection.objects.link(target)
    ext(arm).look_at.preview_target_bpy_object = target
    ext(arm).look_at.enable_preview = True
    for f, loc in ((1, (0.0, -1.0, 1.2)), (16, (0.45, -0.9, 1.45)), (31, (-0.35, -0.8, 0.95))):
        target.location = loc
        target.keyframe_insert(data_path="location", frame=f)
    activate(arm)
    result = bpy.ops.export_scene.vrma(filepath=args["out"], armature_object_name=arm.name)
    return {"result": sorted(result), "samples": sample(arm, range(1, ${FRAMES} + 1), None, ["happy"])}
`;

const REIMPORT = `
def main(args):
    arm = load_avatar(args["avatar"])
    ok = import_vrma(arm, args["motion"], fps=${FPS})
    return {"ok": ok, "frames": baked_frames(arm), "samples": sample(arm, range(1, ${FRAMES} + 1), None, ["happy"])}
`;

const p95 = (sorted: readonly number[]) => quantile(sorted, 0.95);

/** The gaze that looks from the eyes (head + offsetFromHeadBone) at the target, as VRMLookAt's yaw/pitch (degrees). */
function gazeTo(target: readonly number[], head: readonly number[], offset: readonly number[]): { yaw: number; pitch: number } {
  const d = sub(target, [head[0] + offset[0], head[1] + offset[1], head[2] + offset[2]]);
  return { yaw: (Math.atan2(d[0], d[2]) * 180) / Math.PI, pitch: (-Math.atan2(d[1], Math.hypot(d[0], d[2])) * 180) / Math.PI };
}

describeBlender("Blender's files in the studio: the add-on's VRMA export read, played and written back", () => {
  const avatarPath = fixturePath('vrm1', 'debug_robot.vrm');
  let made: { result: string[]; samples: Sample[] };
  let exported: Uint8Array;
  let motion: Motion;
  let ours: Uint8Array;
  let back: { ok: boolean; frames: [number, number]; samples: Sample[] };
  const times = Array.from({ length: FRAMES }, (_, i) => i / FPS);

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vrma-blender-export-'));
    try {
      const out = join(dir, 'blender.vrma');
      made = await runBlender(MAKE, { avatar: avatarPath, out });
      exported = new Uint8Array(readFileSync(out));
      motion = readVrma(exported);
      ours = writeVrma(motion);
      writeFileSync(join(dir, 'ours.vrma'), ours);
      back = await runBlender(REIMPORT, { avatar: avatarPath, motion: join(dir, 'ours.vrma') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 600_000);

  it("the studio reads the bones, the expression and the gaze (converted to the rotation) of the add-on's file", () => {
    expect(made.result).toEqual(['FINISHED']);
    for (const b of ['rightUpperArm', 'leftLowerArm', 'rightUpperLeg'] as const) {
      const node = motion.humanoid.boneToNode[b];
      expect(motion.channels.some((c) => c.node === node && c.path === 'rotation'), b).toBe(true);
    }
    expect(motion.warnings.map((w) => w.detail)).toContain('vrma.lookAtGazePoint');
    for (const [i, s] of made.samples.entries()) expect(Math.abs(expressionWeightAt(motion, 'happy', times[i]) - s.expressions.happy)).toBeLessThanOrEqual(WEIGHT_TOLERANCE);
    const offset = ((motion.gltf.extensions as any).VRMC_vrm_animation.lookAt.offsetFromHeadBone as number[]) ?? [0, 0, 0];
    let worst = 0;
    for (const [i, s] of made.samples.entries()) {
      const want = gazeTo(s.target!, s.pose.head, offset);
      const got = lookAtAt(motion, times[i])!;
      worst = Math.max(worst, Math.abs(got.yaw - want.yaw), Math.abs(got.pitch - want.pitch));
    }
    console.log(`gaze read from the add-on's target translation: worst ${worst.toFixed(4)}° off the eyes-to-target direction`);
    expect(worst).toBeLessThanOrEqual(GAZE_TOLERANCE_DEG);
  });

  it("the check says so: three-vrm refuses the add-on's gaze translation, our write of it is spec 1.0", () => {
    const findings = checkCompatibility(exported).map((f) => `${f.reader}:${f.code}`);
    const oursFindings = checkCompatibility(ours).map((f) => `${f.reader}:${f.code}`);
    console.log(`check on the add-on's export: ${findings.join(', ')}; on our write of it: ${oursFindings.join(', ')}`);
    expect(findings).toEqual(EXPORT_FINDINGS);
    expect(oursFindings).toEqual(OUR_WRITE_FINDINGS);
  });

  it('three-vrm-animation refuses the file as the add-on wrote it, and plays our write of it as Blender posed it', async () => {
    await expect(loadVrmAnimation(exported)).rejects.toThrow(/Invalid path "translation"/);
    const avatar = await loadTestAvatar(new Uint8Array(readFileSync(avatarPath)), 'debug_robot');
    const played = await playedStates(avatar, ours, times, { bones: HUMAN_BONE_NAMES, expressions: ['happy'] });
    const angles = limbAngles(made.samples.map((s) => s.pose), played.map((p) => Object.fromEntries(Object.entries(p.pose).map(([k, v]) => [k, v!.position]))));
    console.log(`Blender's pose vs three-vrm playing our write: median ${angles[angles.length >> 1].toFixed(5)}°, p95 ${p95(angles).toFixed(5)}°, max ${angles[angles.length - 1].toFixed(5)}°`);
    expect(p95(angles)).toBeLessThanOrEqual(LIMB_P95_DEG);
    expect(angles[angles.length - 1]).toBeLessThanOrEqual(LIMB_MAX_DEG);
    // The keyed bones really moved: the right upper arm is 50° off its rest at frame 16.
    expect(angleDeg(sub(made.samples[15].pose.rightLowerArm, made.samples[15].pose.rightUpperArm), sub(made.samples[0].pose.rightLowerArm, made.samples[0].pose.rightUpperArm))).toBeGreaterThan(30);
    const offset = ((motion.gltf.extensions as any).VRMC_vrm_animation.lookAt.offsetFromHeadBone as number[]) ?? [0, 0, 0];
    for (const [i, s] of made.samples.entries()) {
      expect(Math.abs(played[i].expressions.happy - s.expressions.happy)).toBeLessThanOrEqual(WEIGHT_TOLERANCE);
      const want = gazeTo(s.target!, s.pose.head, offset);
      expect(Math.abs(played[i].lookAt.yaw - want.yaw)).toBeLessThanOrEqual(GAZE_TOLERANCE_DEG);
      expect(Math.abs(played[i].lookAt.pitch - want.pitch)).toBeLessThanOrEqual(GAZE_TOLERANCE_DEG);
    }
  });

  it('the add-on imports our write back to the pose and weights it exported; the gaze stays behind', () => {
    expect(back.ok).toBe(true);
    expect(back.frames).toEqual([1, FRAMES]);
    const angles = limbAngles(made.samples.map((s) => s.pose), back.samples.map((s) => s.pose));
    console.log(`Blender -> our write -> Blender: median ${angles[angles.length >> 1].toFixed(5)}°, p95 ${p95(angles).toFixed(5)}°, max ${angles[angles.length - 1].toFixed(5)}°`);
    expect(p95(angles)).toBeLessThanOrEqual(LIMB_P95_DEG);
    expect(angles[angles.length - 1]).toBeLessThanOrEqual(LIMB_MAX_DEG);
    for (const [i, s] of back.samples.entries()) expect(Math.abs(s.expressions.happy - made.samples[i].expressions.happy)).toBeLessThanOrEqual(WEIGHT_TOLERANCE);
    expect(back.samples.every((s) => s.target === null)).toBe(true);
  });
});
