/**
 * Blender with the VRM Add-on for Blender as a real client in tests: `runBlender(script, args)` starts
 * Debian's `blender` headless once, runs a Python script in it and returns what the script's
 * `main(args)` returned (JSON, through a file: Blender's stdout is full of its own logging).
 *
 * The add-on stays outside the repository (../shared/vendor/vrm-addon-for-blender, beside the
 * fixtures); it is copied once into a temporary BLENDER_USER_SCRIPTS folder (userScripts), and Blender
 * runs with --factory-startup, so no Blender preferences are read or written. Every script starts with the PRELUDE below: the numpy
 * shim Blender 3.4's glTF importer needs, the add-on enabled, and helpers to load an avatar, import a
 * .vrma, sample the baked pose and export a .vrma. One launch costs ~1.5 s: batch files into one run.
 *
 * Tests that need Blender use describeBlender: skipped with the reason where `blender` (or the add-on,
 * or the fixtures) is absent, and only there; describeBlenderApp for those that use Blender's own importers
 * only (runBlender with { addon: false }, e.g. importedPoses: the export proofs).
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describeFixtures } from './fixtures';
import { HUMAN_BONE_NAMES, HUMAN_BONE_PARENT, type HumanBoneName } from '../shared/vrm/humanBones';

export const BLENDER_PATH = process.env.BLENDER_PATH ?? 'blender';
export const ADDON_DIR = resolve(__dirname, '..', '..', 'shared', 'vendor', 'vrm-addon-for-blender', 'io_scene_vrm');

function blenderVersion(): string | null {
  try {
    const r = spawnSync(BLENDER_PATH, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    const m = /Blender (\d+\.\d+(\.\d+)?)/.exec(r.stdout ?? '');
    return r.status === 0 && m ? m[1] : null;
  } catch {
    return null;
  }
}

/** "3.4.1", or null when `blender` does not run here. */
export const BLENDER_VERSION = blenderVersion();
export const HAS_BLENDER = BLENDER_VERSION !== null && existsSync(join(ADDON_DIR, '__init__.py'));
export const NO_BLENDER_REASON = BLENDER_VERSION === null
  ? `Blender not found (${BLENDER_PATH}; apt-get install blender python3-numpy, or set BLENDER_PATH)`
  : `the VRM add-on is not at ${ADDON_DIR} (it sits beside the repository in ../shared/vendor)`;

/** describe() for suites that run Blender on the fixtures: skipped, with the reason, where either is absent. */
export const describeBlender = describeFixtures.skipIf(!HAS_BLENDER, NO_BLENDER_REASON);
/** describe() for suites that need Blender's own importers, not the add-on. */
export const describeBlenderApp = describeFixtures.skipIf(BLENDER_VERSION === null, NO_BLENDER_REASON);

/**
 * Python run before every script. `main(args)` of the script is called with the decoded args; what it
 * returns is written as JSON. Coordinates given back are glTF's (Y up, +Z forward of a VRM 1.0 avatar):
 * Blender's (x, y, z) is glTF's (x, z, -y).
 */
// biome-ignore lint/complexity/noUselessStringRaw: Python source; raw so a backslash added later stays Python's.
export const PRELUDE = String.raw`
import sys, json, math, traceback
import numpy as np
for _alias, _type in (("bool", bool), ("int", int), ("float", float), ("object", object)):
    if not hasattr(np, _alias):
        setattr(np, _alias, _type)  # Blender 3.4's glTF importer uses numpy aliases removed in numpy 1.24
import bpy, addon_utils
from mathutils import Vector, Matrix, Quaternion
if WITH_ADDON:
    addon_utils.enable("io_scene_vrm", default_set=True)

def to_gltf(v):
    return [v.x, v.z, -v.y]

def clear_scene():
    for o in list(bpy.data.objects):
        bpy.data.objects.remove(o, do_unlink=True)
    for coll in (bpy.data.actions, bpy.data.armatures, bpy.data.meshes, bpy.data.materials):
        for d in list(coll):
            coll.remove(d)

def load_avatar(path):
    """A fresh scene with the VRM avatar; returns its armature object."""
    clear_scene()
    bpy.ops.import_scene.vrm(filepath=path)
    arm = next(o for o in bpy.context.scene.objects if o.type == "ARMATURE")
    activate(arm)
    return arm

def activate(arm):
    if bpy.context.object and bpy.context.object.mode != "OBJECT":
        bpy.ops.object.mode_set(mode="OBJECT")
    for o in bpy.context.scene.objects:
        o.select_set(False)
    bpy.context.view_layer.objects.active = arm
    arm.select_set(True)

def ext(arm):
    return arm.data.vrm_addon_extension.vrm1

def human_bones(arm):
    """VRM 1.0 bone name (camelCase) -> Blender bone name, for the bones the avatar has."""
    out = {}
    for name, hb in ext(arm).humanoid.human_bones.human_bone_name_to_human_bone().items():
        if hb.node.bone_name and hb.node.bone_name in arm.pose.bones:
            out[name.value] = hb.node.bone_name
    return out

def clear_animation(arm):
    for holder in (arm, arm.data):
        if holder.animation_data:
            holder.animation_data.action = None
    for a in list(bpy.data.actions):
        bpy.data.actions.remove(a)
    target = ext(arm).look_at.preview_target_bpy_object
    if target:  # the gaze target an earlier import made
        ext(arm).look_at.preview_target_bpy_object = None
        bpy.data.objects.remove(target, do_unlink=True)
    for pb in arm.pose.bones:
        pb.location = (0, 0, 0)
        pb.rotation_quaternion = (1, 0, 0, 0)
        pb.rotation_euler = (0, 0, 0)
        pb.scale = (1, 1, 1)
    for e in ext(arm).expressions.all_name_to_expression_dict().values():
        e.preview = 0.0

def import_vrma(arm, path, fps=None):
    """Imports a .vrma onto the avatar as the add-on does (baked at the scene's fps, frame = t*fps + 1)."""
    clear_animation(arm)
    if fps:
        bpy.context.scene.render.fps = int(fps)
        bpy.context.scene.render.fps_base = 1.0
    activate(arm)
    r = bpy.ops.import_scene.vrma(filepath=path)
    return "FINISHED" in r

def baked_frames(arm):
    """First and last frame the import keyed (None when it keyed nothing)."""
    keys = [k.co.x for holder in (arm, arm.data) if holder.animation_data and holder.animation_data.action
            for fc in holder.animation_data.action.fcurves for k in fc.keyframe_points]
    return (int(round(min(keys))), int(round(max(keys)))) if keys else None

def look_at_target(arm):
    t = ext(arm).look_at.preview_target_bpy_object
    return t

def sample(arm, frames, bones=None, expressions=()):
    """Per frame: world head position of each human bone (glTF metres), expression previews, gaze target."""
    names = human_bones(arm)
    if bones is not None:
        names = {b: names[b] for b in bones if b in names}
    exprs = ext(arm).expressions.all_name_to_expression_dict()
    out = []
    for f in frames:
        bpy.context.scene.frame_set(f)
        pose = {}
        for vrm_name, bone_name in names.items():
            m = arm.matrix_world @ arm.pose.bones[bone_name].matrix
            pose[vrm_name] = to_gltf(m.to_translation())
        weights = {e: exprs[e].preview for e in expressions if e in exprs}
        t = look_at_target(arm)
        out.append({"frame": f, "pose": pose, "expressions": weights, "target": to_gltf(t.matrix_world.to_translation()) if t else None})
    return out

def rest_positions(arm):
    names = human_bones(arm)
    return {b: to_gltf(arm.matrix_world @ arm.data.bones[n].head_local) for b, n in names.items()}

def _run():
    argv = sys.argv[sys.argv.index("--") + 1:]
    with open(argv[0], encoding="utf-8") as f:
        args = json.load(f)
    try:
        result = {"ok": main(args)}
    except Exception:
        result = {"error": traceback.format_exc()}
    with open(argv[1], "w", encoding="utf-8") as f:
        json.dump(result, f)
`;

let scriptsDir: string | undefined;

/**
 * The BLENDER_USER_SCRIPTS with the add-on in addons/: one folder in the temp directory per add-on
 * version, made once and reused by every test process and run (a per-process copy would be left behind
 * whenever Vitest ends its workers without an exit event). Made under a private name and renamed into
 * place, so test files starting together never see half a copy.
 */
function userScripts(): string {
  if (scriptsDir) return scriptsDir;
  const init = statSync(join(ADDON_DIR, '__init__.py'));
  const dir = join(tmpdir(), `vrma-studio-blender-scripts-${init.size}-${Math.round(init.mtimeMs)}`);
  if (!existsSync(join(dir, 'addons', 'io_scene_vrm', '__init__.py'))) {
    const staging = mkdtempSync(join(tmpdir(), 'vrma-blender-staging-'));
    mkdirSync(join(staging, 'addons'));
    cpSync(ADDON_DIR, join(staging, 'addons', 'io_scene_vrm'), { recursive: true });
    try {
      renameSync(staging, dir);
    } catch {
      // Another test process put it there first.
      rmSync(staging, { recursive: true, force: true });
    }
  }
  scriptsDir = dir;
  return dir;
}

export interface BlenderRunOptions {
  /** Default 10 minutes; the run is killed after it. */
  readonly timeoutMs?: number;
  /** Enable the VRM add-on (default true); false leaves Blender's own importers as they ship. */
  readonly addon?: boolean;
}

/** Thrown when Blender fails: the script's Python traceback, or the tail of Blender's own output. */
export class BlenderError extends Error {}

/**
 * Runs `script` (Python defining `main(args)`, after PRELUDE) in one headless Blender with the add-on,
 * and resolves to what `main` returned. Rejects with BlenderError on a Python exception, a crash or the timeout.
 */
export async function runBlender<T = unknown>(script: string, args: unknown, opts: BlenderRunOptions = {}): Promise<T> {
  const addon = opts.addon ?? true;
  if (addon ? !HAS_BLENDER : BLENDER_VERSION === null) throw new BlenderError(NO_BLENDER_REASON);
  const scripts = addon ? userScripts() : undefined;
  const work = mkdtempSync(join(tmpdir(), 'vrma-blender-run-'));
  try {
    const py = join(work, 'script.py');
    const input = join(work, 'args.json');
    const output = join(work, 'result.json');
    writeFileSync(py, `WITH_ADDON = ${addon ? 'True' : 'False'}\n${PRELUDE}\n${script}\n\n_run()\n`);
    writeFileSync(input, JSON.stringify(args));
    const log = await new Promise<{ code: number | null; text: string }>((done, fail) => {
      const child = spawn(BLENDER_PATH, ['-b', '--factory-startup', '--python-exit-code', '1', '--python', py, '--', input, output], {
        env: scripts ? { ...process.env, BLENDER_USER_SCRIPTS: scripts } : process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      // Only the tail is kept for the error message: an import logs thousands of lines.
      const keep = (b: Buffer) => (text = (text + b.toString()).slice(-20_000));
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        fail(new BlenderError(`Blender did not finish within ${(opts.timeoutMs ?? 600_000) / 1000} s\n${text.slice(-4000)}`));
      }, opts.timeoutMs ?? 600_000);
      child.on('error', (e) => {
        clearTimeout(timer);
        fail(new BlenderError(`Blender could not start: ${e.message}`));
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        done({ code, text });
      });
    });
    if (!existsSync(output)) throw new BlenderError(`Blender exited with ${log.code} before the script finished\n${log.text.slice(-4000)}`);
    const result = JSON.parse(readFileSync(output, 'utf8')) as { ok?: T; error?: string };
    if (result.error !== undefined) throw new BlenderError(`the Blender script failed:\n${result.error}`);
    return result.ok as T;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Each human bone with its nearest human ancestor: the limb segments whose directions the Blender tests compare. */
export const SEGMENTS: readonly (readonly [HumanBoneName, HumanBoneName])[] = HUMAN_BONE_NAMES.flatMap((b) => (HUMAN_BONE_PARENT[b] ? [[HUMAN_BONE_PARENT[b]!, b] as const] : []));

export const sub3 = (a: readonly number[], b: readonly number[]): number[] => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** Angle in degrees between two vectors; atan2 keeps tiny angles exact, where acos of a dot near 1 would lose them. */
export function angleDeg(a: readonly number[], b: readonly number[]): number {
  const cross = Math.hypot(a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]);
  return (Math.atan2(cross, a[0] * b[0] + a[1] * b[1] + a[2] * b[2]) * 180) / Math.PI;
}

/** Per frame and limb segment, the angle (degrees) between two sequences of poses (world positions per bone), sorted. */
export function limbAngles(a: readonly Readonly<Record<string, readonly number[]>>[], b: readonly Readonly<Record<string, readonly number[]>>[]): number[] {
  const out: number[] = [];
  a.forEach((pa, i) => {
    const pb = b[i];
    for (const [p, c] of SEGMENTS) {
      if (!pa[p] || !pa[c] || !pb[p] || !pb[c]) continue;
      const d = sub3(pb[c], pb[p]);
      // A zero-length segment has no direction.
      if (Math.hypot(d[0], d[1], d[2]) >= 1e-4) out.push(angleDeg(sub3(pa[c], pa[p]), d));
    }
  });
  return out.sort((x, y) => x - y);
}

/** The q-quantile of sorted numbers (nearest rank). */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1) + 0.5))] : NaN;
}

/** Every pose bone's world head position per frame, as Blender's own importer placed it (Blender's axes, Z up). */
export interface ImportedPoses {
  readonly names: readonly string[];
  readonly fps: number;
  /** The action the armature plays (null when none). */
  readonly action: string | null;
  /** Per bone name: x, y, z of each frame in turn. */
  readonly heads: Readonly<Record<string, number[]>>;
}

/**
 * `file` imported by Blender's own importer (bvh, glb or fbx; the add-on off), its largest armature's
 * bones sampled over `frames` frames from `start` (the BVH and FBX importers put time 0 on frame 1,
 * the glTF importer on frame 0), at 30 fps like the exports.
 */
export function importedPoses(file: string, kind: 'bvh' | 'glb' | 'fbx', frames: number, start: number, opts: BlenderRunOptions = {}): Promise<ImportedPoses> {
  return runBlender<ImportedPoses>(POSE_DUMP, { file, kind, frames, start }, { ...opts, addon: false });
}

/** importedPoses of bytes written for the import into a temporary folder (removed after). */
export async function importedPosesOf(bytes: Uint8Array, kind: 'bvh' | 'glb' | 'fbx', frames: number, start: number, opts: BlenderRunOptions = {}): Promise<ImportedPoses> {
  const dir = mkdtempSync(join(tmpdir(), `vrma-${kind}-`));
  try {
    writeFileSync(join(dir, `in.${kind}`), bytes);
    return await importedPoses(join(dir, `in.${kind}`), kind, frames, start, opts);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// biome-ignore lint/complexity/noUselessStringRaw: Python source, raw as PRELUDE.
const POSE_DUMP = String.raw`
import builtins
_open = builtins.open
def _open_no_u(file, mode="r", *a, **k):
    # Blender 3.4's BVH importer opens with mode "rU", which Python 3.11 refuses.
    return _open(file, mode.replace("U", ""), *a, **k)

def main(args):
    path, kind, frames, start = args["file"], args["kind"], args["frames"], args["start"]
    bpy.ops.wm.read_factory_settings(use_empty=True)
    scene = bpy.context.scene
    if kind == "bvh":
        builtins.open = _open_no_u
        try:
            bpy.ops.import_anim.bvh(filepath=path, axis_forward="Y", axis_up="Z", global_scale=1.0, frame_start=1, use_fps_scale=False, update_scene_fps=False, update_scene_duration=True, rotate_mode="NATIVE")
        finally:
            builtins.open = _open
    elif kind == "glb":
        scene.render.fps = 30  # keys land on frames at the scene's rate: the export's
        bpy.ops.import_scene.gltf(filepath=path)
    elif kind == "fbx":
        scene.render.fps = 30
        bpy.ops.import_scene.fbx(filepath=path, automatic_bone_orientation=False, ignore_leaf_bones=False)
    arm = max([o for o in bpy.data.objects if o.type == "ARMATURE"], key=lambda o: len(o.pose.bones))
    if kind != "bvh" and arm.animation_data and arm.animation_data.action is None and bpy.data.actions:
        arm.animation_data.action = bpy.data.actions[0]
    action = arm.animation_data.action.name if arm.animation_data and arm.animation_data.action else None
    res = {"names": [b.name for b in arm.pose.bones], "fps": scene.render.fps, "action": action, "heads": {b.name: [] for b in arm.pose.bones}}
    for f in range(frames):
        scene.frame_set(start + f)
        for pb in arm.pose.bones:
            h = arm.matrix_world @ pb.head
            res["heads"][pb.name].extend([h.x, h.y, h.z])
    return res
`;
