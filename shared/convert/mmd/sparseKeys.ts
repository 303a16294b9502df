/**
 * A VMD's own key structure after the bake (issue 27). The bake plays the motion SUBFRAMES times per
 * frame; each written bone track then keeps the frames its MMD bones (channelSources.ts) have keys on
 * in the VMD, as CUBIC keys fitted to the played curve between them (cubicKeys.ts), plus the fewest
 * frames the fit needs within the optimizer's tolerance (DEFAULT_ROTATION_TOLERANCE, and
 * DEFAULT_POSITION_TOLERANCE in world metres). Before a track's first and after its last key MMD
 * holds the key, as glTF does, so no key is added at the motion's ends.
 *
 * Tracks an IK chain moves (leg IK on at some frame) keep a key on every frame, LINEAR as the bake
 * made them: MMD solves IK per played frame, so there is no curve to keep (and the bake solves IK on
 * whole frames only).
 * Expression tracks are the VMD's morph keys already (MMD plays morphs linearly) and stay as they are.
 */
import type { Channel, Motion } from '../../motion/types';
import { withChannels } from '../../motion/types';
import { DEFAULT_POSITION_TOLERANCE, DEFAULT_ROTATION_TOLERANCE } from '../../edits/optimize';
import { translationUnits } from '../../edits/poseError';
import type { HumanBoneName } from '../../vrm/humanBones';
import { warning, type MotionWarning } from '../../warnings';
import { fitCubicKeys } from './cubicKeys';
import { fromCubicSampler, samplerForm } from '../../vrma/samplerForm';
import { trackSources } from './channelSources';
import type { MmdRig } from './rig';
import type { Vmd } from './vmd';
import type { VrmMapping } from './vrmMapping';
import { IkSwitches } from './vmdSampler';
import { RigPose } from './rigPose';

/** Samples per frame the curves are fitted to (frames, quarter-, half- and three-quarter frames). */
export const SUBFRAMES = 4;

export interface VmdTrackKeys {
  readonly bone: HumanBoneName;
  readonly path: 'rotation' | 'translation';
  readonly keys: number;
  /** Keys on frames the VMD keys (of the MMD bones the track is made of). */
  readonly fromVmd: number;
  /** Keys added where one cubic could not hold the VMD's curve. */
  readonly inserted: number;
  /** A key on every frame: an IK chain moves the track. */
  readonly perFrame: boolean;
  /** Largest fit error over the sub-frame samples (radians, or world metres for the translation). */
  readonly error: number;
}

export interface VmdKeyReport {
  readonly tracks: readonly VmdTrackKeys[];
  /** Bone keys with a key on every frame (the dense bake), and as written. */
  readonly everyFrameKeys: number;
  readonly keys: number;
  readonly inserted: number;
}

/** Links of the leg and toe IK chains the rig solves that the motion leaves on at some frame. */
function activeIkLinks(rig: MmdRig, vmd: Vmd, mapping: VrmMapping): Set<number> {
  const pose = new RigPose(rig, [...mapping.source.values()].filter((i) => i >= 0));
  const ik = new IkSwitches(vmd.ikKeys);
  const on = (key: string) => ik.enabled(key, 0) || vmd.ikKeys.some((k) => ik.enabled(key, k.frame));
  const links = new Set<number>();
  for (const c of [...pose.legChains, ...pose.toeChains]) {
    const bone = rig.bones[c.ik];
    if (bone.ik && on(bone.key)) { for (const l of bone.ik.links) links.add(l); }
  }
  return links;
}

/** Sorted distinct frames (at most `last`) the given rig bones have VMD keys on. */
function keyFrames(vmd: Vmd, rig: MmdRig, bones: readonly number[], last: number): number[] {
  const wanted = new Set(bones);
  const frames = new Set<number>();
  for (const t of vmd.boneTracks) {
    const b = rig.index.get(t.key);
    if (b !== undefined && wanted.has(b)) { for (const f of t.frames) if (f <= last) frames.add(f); }
  }
  return [...frames].sort((a, b) => a - b);
}

export interface SparseVmd {
  readonly motion: Motion;
  readonly report: VmdKeyReport;
}

/**
 * `dense`: the bake's frames as a motion (a key on every frame, the channels to write); `fine`: the
 * same bake at SUBFRAMES per frame; `last`: the last frame.
 */
export function sparseVmdKeys(dense: Motion, fine: Motion, vmd: Vmd, rig: MmdRig, mapping: VrmMapping, last: number): SparseVmd {
  const sources = trackSources(rig, mapping, activeIkLinks(rig, vmd, mapping));
  const units = translationUnits(dense);
  const fineOf = new Map(fine.channels.map((c) => [`${c.node}/${c.path}`, c]));
  const tracks: VmdTrackKeys[] = [];
  let everyFrameKeys = 0;
  const channels = dense.channels.map((c): Channel => {
    const bone = dense.humanoid.nodeToBone.get(c.node);
    const src = bone && sources.get(bone);
    const f = fineOf.get(`${c.node}/${c.path}`);
    if (!bone || !src || !f || (c.path !== 'rotation' && c.path !== 'translation')) return c;
    everyFrameKeys += c.times.length;
    const vmdFrames = keyFrames(vmd, rig, src.bones, last);
    if (src.ik) {
      // The bake's frames as they are (IK is solved on whole frames only).
      tracks.push({ bone, path: c.path, keys: c.times.length, fromVmd: vmdFrames.length, inserted: 0, perFrame: true, error: 0 });
      return c;
    }
    const anchors = vmdFrames.length ? vmdFrames : [0];
    const unit = c.path === 'rotation' ? 1 : units(c.node);
    const tolerance = c.path === 'rotation' ? DEFAULT_ROTATION_TOLERANCE : DEFAULT_POSITION_TOLERANCE / unit;
    const fit = fitCubicKeys(f, SUBFRAMES, anchors, tolerance);
    const channel = asWritten(fit.channel);
    tracks.push({ bone, path: c.path, keys: channel.times.length, fromVmd: anchors.length, inserted: channel.times.length - anchors.length, perFrame: false, error: fit.error * unit });
    return channel;
  });
  const keys = tracks.reduce((s, t) => s + t.keys, 0);
  const inserted = tracks.reduce((s, t) => s + t.inserted, 0);
  return { motion: withChannels(dense, channels), report: { tracks, everyFrameKeys, keys, inserted } };
}

/**
 * The channel as the .vrma reader gives it back (samplerForm.ts owns the file's forms): a cubic
 * segment whose tangents are a chord's or a slerp's is LINEAR there, a flat one takes its neighbour's
 * kind. Converting to that form at once means saving and reopening shows the same kinds.
 */
function asWritten(c: Channel): Channel {
  const form = samplerForm(c);
  return form.interpolation === 'CUBICSPLINE' ? fromCubicSampler(c.node, c.path, form.times, form.output) : c;
}

/** What the conversion says about its keys (the CLI prints it, the studio shows it with the others). */
export function sparseKeyWarnings(report: VmdKeyReport): MotionWarning[] {
  const out = [
    warning(
      `kept the VMD's keys and their curves as Bézier keys: ${report.keys} bone keys instead of ${report.everyFrameKeys} on every frame, ${report.inserted} added where one Bézier key could not hold an MMD curve`,
      'mmd.curveKeys',
      { keys: report.keys, everyFrame: report.everyFrameKeys, inserted: report.inserted },
    ),
  ];
  const perFrame = [...new Set(report.tracks.filter((t) => t.perFrame).map((t) => t.bone))];
  if (perFrame.length) {
    out.push(
      warning(`${perFrame.length} bone track${perFrame.length === 1 ? '' : 's'} keep a key on every frame (leg IK is solved per frame): ${perFrame.join(', ')}`, 'mmd.ikPerFrame', {
        count: perFrame.length,
        bones: perFrame.join(', '),
      }),
    );
  }
  return out;
}
