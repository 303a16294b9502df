/**
 * A minimal Blender runner for the export proofs: `blender -b --factory-startup --python-expr` with
 * arguments after `--`, waited for with a time limit. (A shared runner, tests/helpers/blender.ts, is
 * being written on another branch; this one is to be folded into it.)
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const BLENDER = process.env.BLENDER_PATH ?? '/usr/bin/blender';
export const HAS_BLENDER = existsSync(BLENDER);
export const NO_BLENDER_REASON = `Blender not found at ${BLENDER} (set BLENDER_PATH)`;

export function runBlender(script: string, args: readonly string[], timeoutMs = 120_000): string {
  const r = spawnSync(BLENDER, ['-b', '--factory-startup', '--python-exit-code', '3', '--python-expr', script, '--', ...args], { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`blender exited with ${r.status}:\n${r.stdout.slice(-2000)}\n${r.stderr.slice(-2000)}`);
  return r.stdout;
}

/**
 * Imports a file with one of Blender's importers and writes every pose bone's world head position per
 * frame as JSON. Arguments: file, output, kind (bvh, glb, fbx), frame count, first frame (the BVH and
 * FBX importers put time 0 on frame 1, the glTF importer on frame 0).
 */
export const POSE_DUMP = `
import bpy, sys, json
argv = sys.argv[sys.argv.index('--') + 1:]
path, out, kind, frames, start = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
bpy.ops.wm.read_factory_settings(use_empty=True)
import builtins
_open = builtins.open
def _open_no_u(file, mode='r', *a, **k):
    # Blender 3.4's BVH importer opens with mode 'rU', which Python 3.11 refuses.
    return _open(file, mode.replace('U', ''), *a, **k)
builtins.open = _open_no_u
import numpy
for _alias, _type in (('bool', bool), ('int', int), ('float', float), ('object', object)):
    # Blender 3.4's glTF importer uses numpy aliases that numpy 1.24 removed.
    if not hasattr(numpy, _alias):
        setattr(numpy, _alias, _type)
if kind == 'bvh':
    bpy.ops.import_anim.bvh(filepath=path, axis_forward='Y', axis_up='Z', global_scale=1.0, frame_start=1, use_fps_scale=False, update_scene_fps=False, update_scene_duration=True, rotate_mode='NATIVE')
elif kind == 'glb':
    # Keys land on frames at the scene's rate: 30 fps, the export's.
    bpy.context.scene.render.fps = 30
    bpy.ops.import_scene.gltf(filepath=path)
elif kind == 'fbx':
    bpy.context.scene.render.fps = 30
    bpy.ops.import_scene.fbx(filepath=path, automatic_bone_orientation=False, ignore_leaf_bones=False)
arm = max([o for o in bpy.data.objects if o.type == 'ARMATURE'], key=lambda o: len(o.pose.bones))
scene = bpy.context.scene
if kind != 'bvh' and arm.animation_data and arm.animation_data.action is None and bpy.data.actions:
    arm.animation_data.action = bpy.data.actions[0]
print('FRAME_START', scene.frame_start, 'ACTION', arm.animation_data.action.name if arm.animation_data and arm.animation_data.action else None)
res = {'names': [b.name for b in arm.pose.bones], 'fps': scene.render.fps, 'heads': {b.name: [] for b in arm.pose.bones}}
for f in range(frames):
    scene.frame_set(start + f)
    for pb in arm.pose.bones:
        h = arm.matrix_world @ pb.head
        res['heads'][pb.name].extend([h.x, h.y, h.z])
json.dump(res, open(out, 'w'))
`;
