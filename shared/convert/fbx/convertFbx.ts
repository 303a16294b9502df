/**
 * FBX -> Motion, one per take (AnimationStack). The skeleton is the file's bone models (LimbNode,
 * Root, Null and whatever the bind pose lists, with their ancestors), its rest the bind pose (Pose
 * "BindPose" or skin clusters, not the nodes' default pose, which is often an animation frame). Each
 * take is sampled on its own frame grid (the file's TimeMode rate, or --fps) by the FBX SDK transform
 * formula (transform.ts) and handed to the shared humanoid retargeting; joints without curves in a
 * take keep the model's own transform (its Lcl properties), as the FBX SDK and three.js play them. Blend shape channels whose names mean a VRM preset become expression tracks.
 */
import { warning, type MotionWarning } from '../../warnings';
import type { Mat4, Motion } from '../../motion/types';
import { MotionError, fail } from '../../errors';
import { JOINT_FRAME_COST, canSpend, type ReadBudget } from '../../readBudget';
import { invertAffine, multiply } from '../../math/mat4';
import type { KeyTrack } from '../../vrma/buildMotion';
import type { SourceJoint, V3 } from '../humanoid/skeleton';
import { prepareRig, retarget, type HumanoidRig, type Poser } from '../humanoid/retarget';
import { MatrixPoser } from '../humanoid/matrixPoser';
import { findPlacement, type Placement } from '../humanoid/placement';
import { scaleDroppedWarning, type ScaleTrack } from '../humanoid/scaleTracks';
import { expressionForMorph } from '../humanoid/expressionNames';
import { isBinaryFbx, parseBinaryFbx } from './binary';
import { isAsciiFbx, parseAsciiFbx } from './ascii';
import type { FbxDocument } from './node';
import { readScene } from './scene';
import { TICKS_PER_SECOND, type FbxModel, type FbxScene, type FbxStack } from './sceneTypes';
import { axisMatrix, childWorld, localMatrix, transformParts, type TransformParts } from './transform';
import { CurveCursor } from './curves';
import { activeLayers, blendLayers, type Component, type LayerChannels } from './layers';

export interface FbxConvertOptions {
  /** Output key rate; default the file's frame rate (TimeMode), 30 when it has none. */
  readonly fps?: number;
  /** Convert only the take with this name. */
  readonly take?: string;
}

import type { TakeInfo } from '../takeInfo';
export type { TakeInfo } from '../takeInfo';

export interface TakeMotion {
  readonly take: TakeInfo;
  readonly motion: Motion;
}

/** Sampled frames beyond this per take are refused (10 minutes at 120 fps is 72,000). */
const MAX_FRAMES = 1_000_000;

export function parseFbx(bytes: Uint8Array): FbxDocument {
  if (isBinaryFbx(bytes)) return parseBinaryFbx(bytes);
  if (isAsciiFbx(bytes)) return parseAsciiFbx(bytes);
  return fail('BAD_FBX', 'fbx.notFbx');
}

interface Skeleton {
  readonly ids: readonly string[];
  readonly joints: readonly SourceJoint[];
  readonly parts: readonly TransformParts[];
  /** Bind local matrices (file space; roots: their bind world). */
  readonly bindLocal: readonly Mat4[];
  /** The models' own local matrices (Lcl properties: the pose a take leaves a joint without curves in). */
  readonly defaultLocal: readonly Mat4[];
  /** The poser's root matrix: the file's world -> the skeleton's own space (humanoid/placement.ts). */
  readonly root: Mat4;
  /** The models above the first bone that only place the skeleton, and where they put it. */
  readonly placement: Placement;
}

const BONE_TYPES = new Set(['LimbNode', 'Root', 'Limb', 'Skeleton']);

function buildSkeleton(scene: FbxScene, warnings: MotionWarning[]): Skeleton {
  const keep = new Set<string>();
  for (const m of scene.models.values()) {
    if (BONE_TYPES.has(m.type) || (scene.bindPose.has(m.id) && m.type !== 'Mesh')) keep.add(m.id);
  }
  if (!keep.size) { for (const m of scene.models.values()) if (m.type === 'Null') keep.add(m.id); }
  for (const id of [...keep]) for (let p = scene.models.get(id)!.parent; p !== null && !keep.has(p); p = scene.models.get(p)!.parent) keep.add(p);
  // Depth first from the roots, so parents come before children.
  const ids: string[] = [];
  const joints: SourceJoint[] = [];
  // An explicit stack, not recursion: a 30k-deep chain must not overflow the call stack.
  const pending: [FbxModel, number][] = [];
  for (const root of scene.models.values()) {
    if (!keep.has(root.id) || (root.parent !== null && keep.has(root.parent))) continue;
    pending.push([root, -1]);
    while (pending.length) {
      const [m, parent] = pending.pop()!;
      const index = ids.length;
      ids.push(m.id);
      if (parent >= 0) (joints[parent].children as number[]).push(index);
      joints.push({ name: m.name, parent, children: [] });
      for (let k = m.children.length - 1; k >= 0; k--) if (keep.has(m.children[k])) pending.push([scene.models.get(m.children[k])!, index]);
    }
  }
  const parts = ids.map((id) => transformParts(scene.models.get(id)!));
  const defaultLocal = parts.map((p) => localMatrix(p, p.translation, p.rotation, p.scaling));
  // Bind world per joint: the bind pose where it has one, else parent's bind world · default local.
  const bindWorld: Mat4[] = [];
  let fromDefaults = 0;
  ids.forEach((id, j) => {
    const pose = scene.bindPose.get(id);
    if (pose) {
      bindWorld[j] = pose;
      return;
    }
    fromDefaults++;
    const local = defaultLocal[j];
    bindWorld[j] = joints[j].parent >= 0 ? childWorld(bindWorld[joints[j].parent], local, parts[j].inheritType) : local;
  });
  if (fromDefaults === ids.length) warnings.push(warning('the file has no bind pose; its default pose is taken as the rest', 'fbx.noBindPose'));
  const bindLocal = ids.map((_, j) => (joints[j].parent >= 0 ? multiply(invertAffine(bindWorld[joints[j].parent]), bindWorld[j]) : bindWorld[j]));
  const axes = axisMatrix(scene.globals, warnings);
  const defaultWorld: Mat4[] = [];
  defaultLocal.forEach((local, j) => (defaultWorld[j] = joints[j].parent >= 0 ? childWorld(defaultWorld[joints[j].parent], local, parts[j].inheritType) : local));
  const moved = new Set<string>();
  for (const stack of scene.stacks) for (const cn of stack.curveNodes) if (CHANNELS[cn.property] !== undefined && [...cn.curves.values()].some((c) => c.times.length > 0)) moved.add(cn.target);
  const placement = findPlacement(
    { joints },
    (j) => !BONE_TYPES.has(scene.models.get(ids[j])!.type) && !moved.has(ids[j]),
    (j) => multiply(axes, defaultWorld[j]),
    axes,
  );
  return { ids, joints, parts, bindLocal, defaultLocal, root: placement.rootMatrix, placement };
}

/** Poses the skeleton: joints at their bind pose follow their parent rigidly, animated ones by InheritType. */
function fbxPoser(skeleton: Skeleton, localAt: (joint: number, frame: number) => Mat4): MatrixPoser {
  return new MatrixPoser(skeleton, skeleton.root, localAt, (parent, local, j) => local === skeleton.bindLocal[j] ? multiply(parent, local) : childWorld(parent, local, skeleton.parts[j].inheritType));
}

/** The parsed file, its skeleton and its humanoid, shared by every take. */
export interface FbxSource {
  readonly scene: FbxScene;
  /** The file's read budget (shared with its arrays and scene): every take's frames x joints spend it. */
  readonly budget: ReadBudget;
  readonly skeleton: Skeleton;
  readonly warnings: readonly MotionWarning[];
  /** Recognised on first use (listing takes needs no humanoid). */
  rig(): HumanoidRig;
  /** Rest pose as a poser frame 0 (the bind pose), for tests. */
  readonly restPoser: Poser;
}

export function readFbx(bytes: Uint8Array): FbxSource {
  const doc = parseFbx(bytes);
  const scene = readScene(doc);
  const warnings = [...scene.warnings];
  const skeleton = buildSkeleton(scene, warnings);
  if (!skeleton.ids.length) {
    // Say what the file is: a blend shape animation (a face, a prop) has no body to move.
    const morphs = scene.stacks.some((st) =>
      st.curveNodes.some((cn) => cn.property === 'DeformPercent' && scene.blendShapeChannels.has(cn.target) && [...cn.curves.values()].some((c) => c.times.length > 0))
    );
    const meshes = [...scene.models.values()].filter((m) => m.type === 'Mesh').map((m) => m.name);
    if (morphs) {
      const names = meshes.length ? meshes.slice(0, 6).join(', ') + (meshes.length > 6 ? ` and ${meshes.length - 6} more` : '') : 'its meshes';
      fail('NO_HUMANOID', 'fbx.blendShapesOnly', { meshes: names });
    }
    fail('NO_HUMANOID', 'fbx.noSkeleton');
  }
  const restPoser = fbxPoser(skeleton, (j) => skeleton.bindLocal[j]);
  let rig: HumanoidRig | undefined;
  return {
    scene,
    budget: doc.budget,
    skeleton,
    warnings,
    restPoser,
    rig() {
      if (rig) return rig;
      restPoser.pose(0);
      const n = skeleton.ids.length;
      const positions: V3[] = [];
      for (let j = 0; j < n; j++) positions.push([restPoser.positions[j * 3], restPoser.positions[j * 3 + 1], restPoser.positions[j * 3 + 2]]);
      rig = prepareRig(
        { hierarchy: skeleton, rest: { positions, endSites: positions.map(() => undefined) }, restRotations: Float64Array.from(restPoser.world), format: 'FBX' },
        { placement: skeleton.placement.toWorld },
      );
      return rig;
    },
  };
}

function keyCount(stack: FbxStack): number {
  let n = 0;
  for (const cn of stack.curveNodes) for (const c of cn.curves.values()) n += c.times.length;
  return n;
}

function takeFps(scene: FbxScene, fps?: number): number {
  return fps ?? scene.globals.fps ?? 30;
}

/** Frames of a take's grid: from its start to its stop, 1/fps apart. */
function frameCount(stack: FbxStack, fps: number): number {
  const span = (stack.stop - stack.start) / TICKS_PER_SECOND;
  const frames = Math.floor(span * fps + 1e-6) + 1;
  if (!(frames >= 1 && frames <= MAX_FRAMES)) fail('TOO_LARGE', 'take.tooLong', { take: stack.name, frames: Math.round(span * fps), fps, max: MAX_FRAMES });
  return frames;
}

export function takeInfo(scene: FbxScene, stack: FbxStack, fps?: number): TakeInfo {
  const rate = takeFps(scene, fps);
  return { name: stack.name, duration: (stack.stop - stack.start) / TICKS_PER_SECOND, fps: rate, keys: keyCount(stack) };
}

export function listFbxTakes(bytes: Uint8Array): TakeInfo[] {
  const scene = readScene(parseFbx(bytes));
  return scene.stacks.map((s) => takeInfo(scene, s));
}

const CHANNELS: Readonly<Record<string, 0 | 1 | 2>> = { 'Lcl Translation': 0, 'Lcl Rotation': 1, 'Lcl Scaling': 2 };
const AXES = ['X', 'Y', 'Z'] as const;

/**
 * Per joint animated in the stack: its layers (active ones, in order) with their T/R/S components,
 * each a cursor, a constant (the curve node's default) or unset; undefined when no layer keys it.
 */
function channelsOf(source: FbxSource, stack: FbxStack): (LayerChannels[] | undefined)[] {
  const { skeleton } = source;
  const index = new Map(skeleton.ids.map((id, j) => [id, j] as const));
  const perJoint: LayerChannels[][] = skeleton.ids.map(() => []);
  const keyed = new Set<number>();
  for (const layer of activeLayers(stack.layers)) {
    const weight = layer.weightCurve ? new CurveCursor(layer.weightCurve) : layer.weight;
    const byJoint = new Map<number, LayerChannels>();
    for (const cn of layer.curveNodes) {
      const j = index.get(cn.target);
      const slot = CHANNELS[cn.property];
      if (j === undefined || slot === undefined) continue;
      let lc = byJoint.get(j);
      if (!lc) byJoint.set(j, lc = { layer, weight, slots: [undefined, undefined, undefined] });
      (lc.slots as (readonly [Component, Component, Component] | undefined)[])[slot] = AXES.map((axis) => {
        const curve = cn.curves.get(axis);
        if (curve?.times.length) {
          keyed.add(j);
          return new CurveCursor(curve);
        }
        return cn.defaults.get(axis);
      }) as [Component, Component, Component];
    }
    for (const [j, lc] of byJoint) perJoint[j].push(lc);
  }
  return perJoint.map((layers, j) => (keyed.has(j) ? layers : undefined));
}

function expressionTracks(source: FbxSource, stack: FbxStack, ticks: Float64Array, times: Float32Array, warnings: MotionWarning[]): Record<string, KeyTrack> | undefined {
  const out: Record<string, KeyTrack> = {};
  const skipped: string[] = [];
  for (const cn of stack.curveNodes) {
    const name = source.scene.blendShapeChannels.get(cn.target);
    if (name === undefined || cn.property !== 'DeformPercent') continue;
    const curve = cn.curves.get('DeformPercent') ?? [...cn.curves.values()][0];
    if (!curve?.times.length) continue;
    const preset = expressionForMorph(name);
    if (!preset) {
      skipped.push(name);
      continue;
    }
    if (out[preset]) continue;
    const cursor = new CurveCursor(curve);
    const values = new Float32Array(ticks.length);
    for (let f = 0; f < ticks.length; f++) values[f] = Math.min(1, Math.max(0, cursor.at(ticks[f]) / 100));
    out[preset] = { times, values };
  }
  if (skipped.length)
    warnings.push(
      warning(`${skipped.length} blend shape(s) with no VRM expression preset skipped: ${skipped.slice(0, 12).join(', ')}`, 'fbx.blendShapesSkipped', {
        count: skipped.length,
        names: skipped.slice(0, 12).join(', '),
      }),
    );
  return Object.keys(out).length ? out : undefined;
}

/** The skeleton's Lcl Scaling curves in a take, sampled on its frames (x y z per frame; unkeyed axes at their default). */
function scaleTracks(source: FbxSource, stack: FbxStack, ticks: Float64Array, times: Float32Array): ScaleTrack[] {
  const joints = new Set(source.skeleton.ids);
  const out: ScaleTrack[] = [];
  for (const cn of stack.curveNodes) {
    if (cn.property !== 'Lcl Scaling' || !joints.has(cn.target)) continue;
    const axes = AXES.map((a) => {
      const c = cn.curves.get(a);
      return c?.times.length ? new CurveCursor(c) : (cn.defaults.get(a) ?? 1);
    });
    if (axes.every((a) => typeof a === 'number')) continue;
    const values = new Float64Array(ticks.length * 3);
    for (let f = 0; f < ticks.length; f++) axes.forEach((a, k) => (values[f * 3 + k] = typeof a === 'number' ? a : a.at(ticks[f])));
    out.push({ times, values });
  }
  return out;
}

/** A take's frame grid and the poser that puts the source skeleton in each frame (file FK, Y-up metres). */
export interface TakeFrames {
  /** Output key times (seconds from the take's start). */
  readonly times: Float32Array;
  /** The same frames in FBX ticks on the file's timeline. */
  readonly ticks: Float64Array;
  readonly poser: MatrixPoser;
  /** Joints with curves in the take. */
  readonly animated: number;
}

export function takeFrames(source: FbxSource, stack: FbxStack, fps: number): TakeFrames {
  const frames = frameCount(stack, fps);
  const { skeleton } = source;
  // Each frame evaluates every joint and every curve node; summed over the file's takes (finding 17:
  // 14 takes x 999k frames each passed a per-take cap), before anything per frame is allocated.
  if (!canSpend(source.budget, JOINT_FRAME_COST * frames * (skeleton.ids.length + stack.curveNodes.length))) fail('TOO_LARGE', 'budget.take', { take: stack.name, frames, limit: source.budget.limit });
  const ticks = new Float64Array(frames);
  const times = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    ticks[f] = Math.min(stack.stop, stack.start + (f * TICKS_PER_SECOND) / fps);
    times[f] = f / fps;
  }
  const channels = channelsOf(source, stack);
  const poser = fbxPoser(skeleton, (j, f) => {
    const layers = channels[j];
    // No curves in this take: the model's own transform, as the FBX SDK (and three.js) play it.
    if (!layers) return skeleton.defaultLocal[j];
    const { t, r, s } = blendLayers(skeleton.parts[j], layers, ticks[f]);
    return localMatrix(skeleton.parts[j], t, r, s);
  });
  return { times, ticks, poser, animated: channels.filter(Boolean).length };
}

export function convertFbxTake(source: FbxSource, stack: FbxStack, opts: FbxConvertOptions = {}): TakeMotion {
  if (opts.fps !== undefined && !(opts.fps > 0 && opts.fps <= 1000)) fail('BAD_PARAMETER', 'convert.fps', { value: String(opts.fps) });
  const info = takeInfo(source.scene, stack, opts.fps);
  if (info.keys === 0) fail('NO_KEYS', 'take.noKeys', { take: stack.name });
  const rig = source.rig();
  const { times, ticks, poser, animated } = takeFrames(source, stack, info.fps);
  const warnings: MotionWarning[] = [...source.warnings];
  if (stack.layerCount > 1)
    warnings.push(warning(
      `take "${stack.name}": ${stack.layerCount} animation layers blended (${stack.layers.map((l) => `${l.name} ${l.mute ? 'muted' : `${l.blend} ${Math.round(l.weight * 100)}%`}`).join(', ')})`,
      'fbx.layersBlended',
      {
        take: stack.name,
        count: stack.layerCount,
        layers: stack.layers.map((l) => l.name).join(', '),
      },
    ));
  const expressions = expressionTracks(source, stack, ticks, times, warnings);
  const scale = scaleDroppedWarning(scaleTracks(source, stack, ticks, times));
  if (scale) warnings.push(scale);
  warnings.push(
    warning(`FBX take "${stack.name}": ${times.length} frames at ${info.fps} fps, ${animated} animated joints, skeleton found by ${rig.recognition.method}`, 'fbx.take', {
      take: stack.name,
      frames: times.length,
      fps: info.fps,
      joints: animated,
      method: rig.recognition.method,
    }),
  );
  const motion = retarget(rig, poser, { times, expressions, warnings, generator: 'VRMA Studio FBX converter', animationName: stack.name });
  return { take: info, motion };
}

/** Every take (or the one named by `take`) converted. */
export function convertFbxTakes(bytes: Uint8Array, opts: FbxConvertOptions = {}): TakeMotion[] {
  const source = readFbx(bytes);
  const stacks = source.scene.stacks;
  if (!stacks.length) fail('NO_KEYS', 'fbx.noTakes');
  if (opts.take !== undefined) {
    const stack = stacks.find((s) => s.name === opts.take);
    if (!stack) fail('BAD_PARAMETER', 'take.unknown', { take: String(opts.take), takes: stacks.map((s) => `“${s.name}”`).join(', ') });
    return [convertFbxTake(source, stack, opts)];
  }
  const out: TakeMotion[] = [];
  const failures: string[] = [];
  for (const stack of stacks) {
    try {
      out.push(convertFbxTake(source, stack, opts));
    } catch (e) {
      // A take with no keys among others is skipped; anything else (no humanoid ...) is the file's error.
      if (e instanceof MotionError && e.code === 'NO_KEYS' && stacks.length > 1) failures.push(stack.name);
      else throw e;
    }
  }
  if (!out.length) fail('NO_KEYS', 'take.noneHasKeys', { takes: failures.join(', ') });
  if (failures.length)
    out[0] = {
      ...out[0],
      motion: { ...out[0].motion, warnings: [...out[0].motion.warnings, warning(`takes with no keys skipped: ${failures.join(', ')}`, 'fbx.takesWithoutKeys', { takes: failures.join(', ') })] },
    };
  return out;
}

/** The first take (or `opts.take`) as one Motion. */
export function convertFbx(bytes: Uint8Array, opts: FbxConvertOptions = {}): Motion {
  const source = readFbx(bytes);
  const stacks = source.scene.stacks;
  if (!stacks.length) fail('NO_KEYS', 'fbx.noTakes');
  const stack = opts.take !== undefined ? stacks.find((s) => s.name === opts.take) : stacks.find((s) => keyCount(s) > 0) ?? stacks[0];
  if (!stack) fail('BAD_PARAMETER', 'take.unknown', { take: String(opts.take), takes: stacks.map((s) => `“${s.name}”`).join(', ') });
  return convertFbxTake(source, stack, opts).motion;
}
