/**
 * Mixamo-layout FBX files made by Blender 3.4 (issue 23): no Mixamo FBX is among the fixtures, so a test
 * imports fixture takes (BVH, glTF) into Blender, renames the bones to Mixamo's (`mixamorig:Hips`,
 * `mixamorig:Spine`, `mixamorig:LeftUpLeg`...), puts them as a Mixamo file sits in Blender after import
 * (an object "Armature" turned X+90° and scaled 0.01, the bones Y-up in centimetres inside it), skins a
 * small "Body" mesh to every bone (a "With Skin" download: the file gets a bind pose) and exports FBX
 * binary 7.4 at 30 fps with Blender's own exporter. `scaleOption` picks the two unit layouts such files
 * come in: FBX_SCALE_NONE writes UnitScaleFactor 1 (centimetres, as Mixamo writes), FBX_SCALE_UNITS
 * UnitScaleFactor 100 with the "Armature" node scaled 0.01.
 */
import { runBlender } from './blender';

export type MixamoScaleOption = 'FBX_SCALE_NONE' | 'FBX_SCALE_UNITS';

export interface MixamoJob {
  readonly kind: 'bvh' | 'glb';
  readonly source: string;
  readonly out: string;
  /** Source bone name -> Mixamo name without the `mixamorig:` prefix. */
  readonly rename: Readonly<Record<string, string>>;
  readonly scaleOption: MixamoScaleOption;
  /** BVH: metres per file unit (the importer's global scale). */
  readonly metres?: number;
  /** glTF: the action to export (Blender names it after the animation). */
  readonly action?: string;
  /** Export the skeleton at rest with no animation at all (a "T-pose" download). */
  readonly tpose?: boolean;
}

export interface MixamoExport {
  readonly out: string;
  readonly bones: readonly string[];
  /** Scene frame range exported (30 fps). */
  readonly frames: readonly [number, number];
}

/** Daz skeleton (bvh/pirouette.bvh) -> Mixamo. The buttocks have no Mixamo bone: they keep their names, prefixed. */
export const DAZ_TO_MIXAMO: Readonly<Record<string, string>> = (() => {
  const out: Record<string, string> = { hip: 'Hips', abdomen: 'Spine', chest: 'Spine1', neck: 'Neck', head: 'Head', leftEye: 'LeftEye', rightEye: 'RightEye' };
  for (const [s, S] of [['l', 'Left'], ['r', 'Right']] as const) {
    Object.assign(out, {
      [`${s}Collar`]: `${S}Shoulder`,
      [`${s}Shldr`]: `${S}Arm`,
      [`${s}ForeArm`]: `${S}ForeArm`,
      [`${s}Hand`]: `${S}Hand`,
      [`${s}Buttock`]: `${S}Buttock`,
      [`${s}Thigh`]: `${S}UpLeg`,
      [`${s}Shin`]: `${S}Leg`,
      [`${s}Foot`]: `${S}Foot`,
    });
    for (const [d, m] of [['Thumb', 'Thumb'], ['Index', 'Index'], ['Mid', 'Middle'], ['Ring', 'Ring'], ['Pinky', 'Pinky']]) for (const k of [1, 2]) out[`${s}${d}${k}`] = `${S}Hand${m}${k}`;
  }
  return out;
})();

/** KayKit Rig_Medium (gltf/kaykit_*.glb) -> Mixamo; its `root` bone above the hips stays, as `mixamorig:Root`. */
export const KAYKIT_TO_MIXAMO: Readonly<Record<string, string>> = (() => {
  const out: Record<string, string> = { root: 'Root', hips: 'Hips', spine: 'Spine', chest: 'Spine1', head: 'Head' };
  for (const [s, S] of [['l', 'Left'], ['r', 'Right']] as const) {
    Object.assign(out, {
      [`upperleg.${s}`]: `${S}UpLeg`,
      [`lowerleg.${s}`]: `${S}Leg`,
      [`foot.${s}`]: `${S}Foot`,
      [`toes.${s}`]: `${S}ToeBase`,
      [`upperarm.${s}`]: `${S}Arm`,
      [`lowerarm.${s}`]: `${S}ForeArm`,
      [`wrist.${s}`]: `${S}Hand`,
      [`hand.${s}`]: `${S}HandMiddle1`,
      [`handslot.${s}`]: `${S}HandIndex1`,
    });
  }
  return out;
})();

/** One Blender run for every job (a launch costs ~1.5 s). */
export function blenderMixamoFbx(jobs: readonly MixamoJob[]): Promise<MixamoExport[]> {
  return runBlender<MixamoExport[]>(MIXAMO_EXPORT, { jobs }, { addon: false, timeoutMs: 300_000 });
}

// biome-ignore lint/complexity/noUselessStringRaw: Python source, raw as blender.ts's PRELUDE.
const MIXAMO_EXPORT = String.raw`
import builtins
_open = builtins.open
def _open_no_u(file, mode="r", *a, **k):
    # Blender 3.4's BVH importer opens with mode "rU", which Python 3.11 refuses.
    return _open(file, mode.replace("U", ""), *a, **k)

def to_mixamo_layout(arm, rename):
    arm.name = "Armature"
    arm.data.name = "Armature"
    for old, new in rename.items():
        if old in arm.data.bones:
            arm.data.bones[old].name = "mixamorig:" + new  # Blender renames the action's paths with it
    # The armature's data into Y-up centimetres: turn the object X-90° and scale it 100, apply, then
    # put the object back upright as X+90°, 0.01, as Blender's FBX importer leaves a Mixamo file.
    activate(arm)
    arm.rotation_mode = "XYZ"
    arm.rotation_euler = (-math.pi / 2, 0, 0)
    arm.scale = (100, 100, 100)
    bpy.ops.object.transform_apply(location=False, rotation=True, scale=True)
    # Pose-bone locations are in armature units and applying the scale leaves them: scale the keys.
    if arm.animation_data and arm.animation_data.action:
        for fc in arm.animation_data.action.fcurves:
            if fc.data_path.endswith(".location"):
                for k in fc.keyframe_points:
                    for p in (k.co, k.handle_left, k.handle_right):
                        p.y *= 100
    arm.rotation_euler = (math.pi / 2, 0, 0)
    arm.scale = (0.01, 0.01, 0.01)

def add_skin(arm):
    """A small mesh skinned to every bone (one vertex at each bone's head): the export writes a bind pose."""
    bones = [b.name for b in arm.data.bones]
    me = bpy.data.meshes.new("Body")
    verts = [tuple(arm.data.bones[n].head_local) for n in bones]
    h = verts[0]
    me.from_pydata(verts + [(h[0] + 1, h[1], h[2]), (h[0], h[1] + 1, h[2])], [], [(0, len(verts), len(verts) + 1)])
    body = bpy.data.objects.new("Body", me)
    bpy.context.scene.collection.objects.link(body)
    body.parent = arm
    for i, n in enumerate(bones):
        body.vertex_groups.new(name=n).add([i], 1.0, "REPLACE")
    body.vertex_groups[bones[0]].add([len(verts), len(verts) + 1], 1.0, "REPLACE")
    body.modifiers.new("Armature", "ARMATURE").object = arm

def main(args):
    out = []
    for job in args["jobs"]:
        bpy.ops.wm.read_factory_settings(use_empty=True)
        scene = bpy.context.scene
        scene.render.fps = 30
        scene.render.fps_base = 1.0
        if job["kind"] == "bvh":
            builtins.open = _open_no_u
            try:
                bpy.ops.import_anim.bvh(filepath=job["source"], global_scale=job["metres"], frame_start=1, use_fps_scale=True, update_scene_fps=False, update_scene_duration=True, rotate_mode="NATIVE")
            finally:
                builtins.open = _open
        else:
            bpy.ops.import_scene.gltf(filepath=job["source"])
        arm = max([o for o in bpy.data.objects if o.type == "ARMATURE"], key=lambda o: len(o.pose.bones))
        for o in list(bpy.data.objects):
            if o is not arm:
                bpy.data.objects.remove(o, do_unlink=True)
        if arm.animation_data is None:
            arm.animation_data_create()
        for track in list(arm.animation_data.nla_tracks):
            arm.animation_data.nla_tracks.remove(track)
        action = None if job.get("tpose") else (bpy.data.actions[job["action"]] if job.get("action") else arm.animation_data.action)
        arm.animation_data.action = action
        for a in list(bpy.data.actions):
            if a is not action:
                bpy.data.actions.remove(a)
        if action:
            action.name = "mixamo.com"
            lo, hi = action.frame_range
            scene.frame_start, scene.frame_end = int(round(lo)), int(round(hi))
        to_mixamo_layout(arm, job["rename"])
        if not action:
            for pb in arm.pose.bones:
                pb.location = (0, 0, 0); pb.rotation_quaternion = (1, 0, 0, 0); pb.rotation_euler = (0, 0, 0); pb.scale = (1, 1, 1)
        add_skin(arm)
        scene.frame_set(scene.frame_start)
        bpy.ops.export_scene.fbx(
            filepath=job["out"], use_selection=False, object_types={"ARMATURE", "MESH"}, use_armature_deform_only=False,
            add_leaf_bones=True, primary_bone_axis="Y", secondary_bone_axis="X", armature_nodetype="NULL",
            bake_anim=action is not None, bake_anim_use_all_bones=True, bake_anim_use_nla_strips=False, bake_anim_use_all_actions=False,
            bake_anim_force_startend_keying=True, bake_anim_step=1.0, bake_anim_simplify_factor=0.0,
            apply_scale_options=job["scaleOption"], axis_forward="-Z", axis_up="Y")
        out.append({"out": job["out"], "bones": [b.name for b in arm.data.bones], "frames": [scene.frame_start, scene.frame_end]})
    return out
`;
