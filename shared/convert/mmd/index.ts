/**
 * MMD motions (.vmd) and poses (.vpd) to VRM animations. The motion is played on the MMD skeleton
 * (from the model's .pmx when given, else the standard one) with its Bezier curves and leg IK, and
 * every frame's pose is re-expressed on the VRM humanoid: T-pose arms, right-handed, metres.
 */
import { warning, type MotionWarning } from '../../warnings';
import { fail } from '../../errors';
import type { Motion } from '../../motion/types';
import { buildMotion, type KeyTrack } from '../../vrma/buildMotion';
import { bakeMmd, everyNthSample, mmdBudget, type MmdBake, type MmdKeySource } from './bake';
import { combineMax, skippedMorphsWarning } from './morphs';
import { expressionForMorph } from '../humanoid/expressionNames';
import { parsePmxBones } from './pmx';
import { isPmd, parsePmdBones } from './pmd';
import { rigFromPmx, standardRig, type MmdRig } from './rig';
import { nameKey } from './shiftJis';
import { STANDARD_MMD_RIG } from './standardRig';
import { parseVmd, VMD_FPS, type Vmd } from './vmd';
import { SUBFRAMES, sparseKeyWarnings, sparseVmdKeys, type VmdKeyReport } from './sparseKeys';
import { BoneTrackSampler, IkSwitches, sampleMorph } from './vmdSampler';
import { mapRigToVrm, type VrmMapping } from './vrmMapping';
import { parseVpd, type VpdPose } from './vpd';
import { NO_MODEL_WARNING } from './noModel';
import { modelFit, modelMismatchWarning } from './modelFit';

export { parseVmd, type Vmd } from './vmd';
export { parseVpd, type VpdPose } from './vpd';
export { parsePmxBones, type PmxModel } from './pmx';
export { isPmd, parsePmdBones } from './pmd';
export type { MmdBake, LegIkTrace } from './bake';
export type { VmdKeyReport, VmdTrackKeys } from './sparseKeys';

export interface VmdOptions {
  /**
   * The model the motion was made for: its bone rest positions replace the standard skeleton, when it
   * fits the motion (modelFit.ts: 80% of the keyed bones in the model) or `forceModel` is set.
   */
  readonly pmx?: Uint8Array;
  /** Use `pmx` whatever the fit (the CLI's --pmx). */
  readonly forceModel?: boolean;
  /** Bake rate, default 30 (MMD's own); another rate resamples: a key on every frame of it. */
  readonly fps?: number;
  /**
   * 'vmd' (the default): the VMD's keys per bone as cubic keys holding its interpolation curves, plus
   * the fewest keys the optimizer's tolerance needs; tracks leg IK moves keep every frame
   * (sparseKeys.ts). 'everyFrame': a key on every baked frame.
   */
  readonly keys?: 'everyFrame' | 'vmd';
}

export interface VmdDetailOptions extends VmdOptions {
  /** Also record the MMD world position of every mapped bone per frame (fidelity checks). */
  readonly traceJoints?: boolean;
}

/**
 * Bones whose keys make a motion humanoid. 全ての親 and センター are left out: accessories and stage
 * props carry those too (menu_rotation.vmd animates only センター and its own bones).
 */
const BODY_BONES: ReadonlySet<string> = new Set(
  [...STANDARD_MMD_RIG.map((b) => b.key), '上半身3'].filter((k) => k !== '全ての親' && k !== 'センター' && !k.endsWith('先')),
);

export { NO_MODEL_WARNING } from './noModel';

function loadRig(pmx: Uint8Array | undefined, warnings: MotionWarning[], keyed: readonly string[], force: boolean): MmdRig {
  if (pmx) {
    const model = isPmd(pmx) ? parsePmdBones(pmx) : parsePmxBones(pmx);
    const rig = rigFromPmx(model);
    if (force) return rig;
    const fit = modelFit(keyed, rig);
    if (fit.fits) return rig;
    warnings.push(modelMismatchWarning(model.name, fit));
    return standardRig();
  }
  warnings.push(NO_MODEL_WARNING);
  return standardRig();
}

/**
 * Whether the keys move a humanoid: any body bone, or only the root bones (全ての親/センター moving a
 * character whose IK keeps its feet planted). Root keys next to other, non-humanoid bones are an
 * accessory's or a stage's motion.
 */
function bodyKeyCheck(keyed: readonly string[], rig: MmdRig, warnings: MotionWarning[]): boolean {
  const body = keyed.filter((k) => BODY_BONES.has(k));
  const roots = keyed.filter((k) => k === '全ての親' || k === 'センター');
  const ignored = keyed.filter((k) => !BODY_BONES.has(k) && k !== '全ての親' && k !== 'センター' && !k.endsWith('先'));
  if (ignored.length) {
    warnings.push(
      warning(
        `${ignored.length} keyed non-humanoid bone${ignored.length === 1 ? '' : 's'} (hair, clothes, helpers) not converted: ${ignored.slice(0, 10).join(', ')}${ignored.length > 10 ? ', …' : ''}`,
        'mmd.nonHumanoidBones',
        { count: ignored.length, names: ignored.slice(0, 10).join(', '), more: Math.max(0, ignored.length - 10) },
      ),
    );
  }
  const missing = body.filter((k) => !rig.index.has(k));
  if (missing.length) warnings.push(warning(`keys for ${missing.join(', ')} ignored: the model has no such bone`, 'mmd.bonesNotInModel', { bones: missing.join(', ') }));
  return body.length > 0 || (roots.length > 0 && ignored.length === 0);
}

function expressionTracks(
  tracks: readonly { key: string; name: string; sample: () => KeyTrack }[],
  warnings: MotionWarning[],
): Record<string, KeyTrack> {
  const out: Record<string, KeyTrack> = {};
  const skipped: string[] = [];
  for (const t of tracks) {
    const preset = expressionForMorph(t.key);
    if (!preset) skipped.push(t.name);
    else out[preset] = out[preset] ? combineMax(out[preset], t.sample()) : t.sample();
  }
  const w = skippedMorphsWarning(skipped);
  if (w) warnings.push(w);
  return out;
}

/**
 * A foot that stays off its IK target changes the pose, so it is said in words; IK switched off by
 * the motion's own keys is what the animator asked for (the leg follows its FK keys) and is not.
 */
function footShortWarnings(bake: MmdBake): MotionWarning[] {
  return bake.legIk.flatMap((l) => {
    const frames = l.short.reduce((s, v) => s + v, 0);
    if (!frames) return [];
    const reason = l.stretched.reduce((s, v) => s + v, 0) * 2 >= frames ? 'stretched' : 'limits';
    const why = reason === 'stretched' ? 'the leg is fully stretched' : "the knee's limits stop it";
    return [
      warning(`the ${l.side} foot cannot reach its IK target on ${frames} frame${frames === 1 ? '' : 's'} (${why}); the foot stays as far as the leg reaches`, 'mmd.footShort', {
        side: l.side,
        frames,
        reason,
      }),
    ];
  });
}

function clamp01(v: number): number {
  return v < 0 ? 0 : Math.min(v, 1);
}

function checkFps(fps: number | undefined): number {
  if (fps === undefined) return VMD_FPS;
  if (!Number.isFinite(fps) || fps < 1 || fps > 240) fail('BAD_PARAMETER', 'mmd.fps', { value: String(fps) });
  return fps;
}

/**
 * `wholeFramesIk`: IK is solved on whole frames only. Sparse keys play the motion between frames too,
 * for the tracks no IK chain moves (channelSources.ts), which the IK solution does not change; the IK
 * tracks keep a key on every frame (sparseKeys.ts), so solving between frames would only cost time.
 */
function vmdKeySource(vmd: Vmd, rig: MmdRig, wholeFramesIk = false): MmdKeySource {
  const bound = vmd.boneTracks
    .map((t) => ({ bone: rig.index.get(t.key), sampler: new BoneTrackSampler(t) }))
    .filter((b): b is { bone: number; sampler: BoneTrackSampler } => b.bone !== undefined);
  const pos = new Float64Array(3);
  const rot = new Float64Array(4);
  const ik = new IkSwitches(vmd.ikKeys);
  return {
    sample(frame, set) {
      for (const b of bound) {
        b.sampler.sample(frame, pos, 0, rot, 0);
        set(b.bone, pos[0], pos[1], pos[2], rot[0], rot[1], rot[2], rot[3]);
      }
    },
    ikEnabled: (key, frame) => (!wholeFramesIk || Number.isInteger(frame)) && ik.enabled(key, frame),
  };
}

function buildFromBake(bake: MmdBake, mapping: VrmMapping, expressions: Record<string, KeyTrack>, warnings: MotionWarning[], withBody: boolean): Motion {
  // Finite keys and rest positions always give finite poses; this guards the file against anything missed.
  const tracks = [bake.hipsTranslation, ...Object.values(bake.rotations)];
  if (tracks.some((t) => t && !t.values.every(Number.isFinite))) {
    fail('BAD_DATA', 'mmd.nonFinite');
  }
  return buildMotion({
    rotations: withBody ? bake.rotations : {},
    hipsTranslation: withBody ? bake.hipsTranslation : undefined,
    expressions,
    offsets: mapping.offsets,
    bones: mapping.bones,
    warnings,
    generator: 'VRMA Studio MMD converter',
  });
}

export interface VmdConversion {
  readonly motion: Motion;
  /** The baked pose data, including each leg's IK target per frame (for fidelity checks). */
  readonly bake: MmdBake;
  readonly mappedBones: number;
  /** With sparse keys: the keys per track (from the VMD, added, on every frame). */
  readonly keys?: VmdKeyReport;
}

/** convertVmd plus what was measured on the way. */
export function convertVmdDetailed(bytes: Uint8Array, opts: VmdDetailOptions = {}): VmdConversion {
  const fps = checkFps(opts.fps);
  const vmd = parseVmd(bytes);
  const warnings: MotionWarning[] = [];
  const rig = loadRig(opts.pmx, warnings, vmd.boneTracks.map((t) => t.key), opts.forceModel === true);
  const mapping = mapRigToVrm(rig);
  if (!mapping) fail('NO_HUMANOID', 'mmd.noLowerBody');
  const hasBody = bodyKeyCheck(vmd.boneTracks.map((t) => t.key), rig, warnings);
  const expressions = expressionTracks(
    vmd.morphTracks.map((t) => ({
      key: t.key,
      name: t.name,
      sample: () => ({ times: Float32Array.from(t.frames, (f) => f / VMD_FPS), values: Float32Array.from(t.weights, clamp01) }),
    })),
    warnings,
  );
  if (!hasBody && !Object.keys(expressions).length) {
    const names = vmd.boneTracks.map((t) => t.name).slice(0, 8).join(', ');
    fail(
      'NO_HUMANOID',
      names ? 'vmd.noHumanoid' : 'vmd.noBodyOrFace',
      { bones: `${names}${vmd.boneTracks.length > 8 ? ', …' : ''}` },
    );
  }
  if (!hasBody) warnings.push(warning('the motion has no body keys: written as an expressions-only animation', 'mmd.expressionsOnly'));
  // Sample MMD frames at the requested rate, always ending on the last key.
  const last = vmd.lastFrame;
  const count = Math.floor((last * fps) / VMD_FPS + 1e-9) + 1;
  const endsOnKey = Math.abs(((count - 1) * VMD_FPS) / fps - last) < 1e-6;
  const frames = new Float64Array(count + (endsOnKey ? 0 : 1));
  for (let i = 0; i < count; i++) frames[i] = (i * VMD_FPS) / fps;
  if (!endsOnKey) frames[count] = last;
  const sparse = hasBody && opts.keys !== 'everyFrame' && fps === VMD_FPS && endsOnKey;
  const sub = sparse ? SUBFRAMES : 1;
  const played = sparse ? Float64Array.from({ length: (count - 1) * sub + 1 }, (_, i) => i / sub) : frames;
  const budget = mmdBudget(bytes.length, opts.pmx?.length ?? 0, sub);
  const fine = bakeMmd(rig, mapping, vmdKeySource(vmd, rig, sparse), hasBody ? played : new Float64Array([0]), budget, opts.traceJoints, sub);
  const bake = everyNthSample(fine, sub);
  if (hasBody) warnings.push(...footShortWarnings(bake));
  if (!sparse) return { motion: buildFromBake(bake, mapping, expressions, warnings, hasBody), bake, mappedBones: mapping.mappedCount };
  const dense = buildFromBake(bake, mapping, expressions, [], hasBody);
  const { motion, report } = sparseVmdKeys(dense, buildFromBake(fine, mapping, expressions, [], hasBody), vmd, rig, mapping, count - 1);
  warnings.push(...sparseKeyWarnings(report));
  return { motion: { ...motion, warnings }, bake, mappedBones: mapping.mappedCount, keys: report };
}

export function convertVmd(bytes: Uint8Array, opts: VmdOptions = {}): Motion {
  return convertVmdDetailed(bytes, opts).motion;
}

function vpdKeySource(pose: VpdPose, rig: MmdRig): MmdKeySource {
  const bound = pose.bones.map((b) => ({ bone: rig.index.get(nameKey(b.name)), b })).filter((x) => x.bone !== undefined);
  return {
    sample(_frame, set) {
      for (const { bone, b } of bound) set(bone!, ...b.position, ...b.rotation);
    },
    ikEnabled: () => true,
  };
}

/** A VPD pose as a one-frame motion. */
export function convertVpd(bytes: Uint8Array, opts: { readonly pmx?: Uint8Array; readonly forceModel?: boolean } = {}): Motion {
  const pose = parseVpd(bytes);
  const warnings: MotionWarning[] = [];
  const rig = loadRig(opts.pmx, warnings, pose.bones.map((b) => nameKey(b.name)), opts.forceModel === true);
  const mapping = mapRigToVrm(rig);
  if (!mapping) fail('NO_HUMANOID', 'mmd.noLowerBody');
  const hasBody = bodyKeyCheck(pose.bones.map((b) => nameKey(b.name)), rig, warnings);
  const expressions = expressionTracks(
    pose.morphs.map((m) => ({ key: nameKey(m.name), name: m.name, sample: () => ({ times: new Float32Array([0]), values: new Float32Array([clamp01(m.weight)]) }) })),
    warnings,
  );
  if (!hasBody && !Object.keys(expressions).length) {
    fail('NO_HUMANOID', 'vpd.noHumanoid');
  }
  const bake = bakeMmd(rig, mapping, vpdKeySource(pose, rig), new Float64Array([0]), mmdBudget(bytes.length, opts.pmx?.length ?? 0));
  return buildFromBake(bake, mapping, expressions, warnings, hasBody);
}

/** The pose of a VMD at one frame, as a VPD would hold it (for writing poses out of motions). */
export function vmdFramePose(vmd: Vmd, frame: number): VpdPose {
  const pos = new Float64Array(3);
  const rot = new Float64Array(4);
  return {
    modelName: vmd.modelName,
    bones: vmd.boneTracks.map((t) => {
      new BoneTrackSampler(t).sample(frame, pos, 0, rot, 0);
      return { name: t.name, position: [pos[0], pos[1], pos[2]] as const, rotation: [rot[0], rot[1], rot[2], rot[3]] as const };
    }),
    morphs: vmd.morphTracks.map((t) => ({ name: t.name, weight: sampleMorph(t, frame) })),
  };
}
