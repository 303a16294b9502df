/**
 * Where the bedroom's motions come from: the built-in poses (back, side, sitting up) and the standing
 * idle, made in code and read back through three-vrm-animation like any file; the user's own sleep
 * pose files (.vrma as is, .vpd converted on the fly); and the left side, always the mirror of the
 * side pose made with the core's mirror edit. Pose clips keep their bone tracks only: the face is the
 * bedroom's (face.ts), so a pose's expression tracks never fight it.
 */
import type { AnimationClip } from 'three';
import type { VRM } from '@pixiv/three-vrm';
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { mirror } from '../../shared/edits/mirror';
import { convertVpd } from '../../shared/convert/mmd/index';
import { makeIdleMotion } from '../../shared/assets/walkCycle';
import { clipFromVrma } from './loadVrm';
import { makeBackPose, makeSidePose, makeSitPose } from './defaultPoses';
import { t } from '../../shared/i18n';

/** The clip without expression or look-at tracks (bone rotations and the hips position only). */
export function boneTracksOnly(clip: AnimationClip): AnimationClip {
  clip.tracks = clip.tracks.filter((t) => t.name.endsWith('.quaternion') || t.name.endsWith('.position'));
  return clip;
}

export async function clipFromMotion(motion: Motion, vrm: VRM): Promise<AnimationClip> {
  return boneTracksOnly(await clipFromVrma(writeVrma(motion), vrm));
}

export interface PoseMotion {
  readonly motion: Motion;
  readonly clip: AnimationClip;
}

export async function poseFromMotion(motion: Motion, vrm: VRM): Promise<PoseMotion> {
  return { motion, clip: await clipFromMotion(motion, vrm) };
}

export interface BuiltInPoses {
  readonly idle: AnimationClip;
  readonly sit: AnimationClip;
  readonly back: PoseMotion;
  readonly side: PoseMotion;
}

export async function builtInClips(vrm: VRM): Promise<BuiltInPoses> {
  const [idle, sit, back, side] = await Promise.all([
    clipFromMotion(makeIdleMotion(), vrm),
    clipFromMotion(makeSitPose(), vrm),
    poseFromMotion(makeBackPose(), vrm),
    poseFromMotion(makeSidePose(), vrm),
  ]);
  return { idle, sit, back, side };
}

/** The left side: the side pose mirrored by the core's mirror edit. */
export function leftFromSide(side: PoseMotion, vrm: VRM): Promise<PoseMotion> {
  return poseFromMotion(mirror(side.motion), vrm);
}

export class PoseFileError extends Error {}

/** A user's sleep pose file as motion data; throws PoseFileError with a message a user can act on. */
export function motionFromPoseFile(name: string, bytes: Uint8Array): Motion {
  const lower = name.toLowerCase();
  try {
    if (lower.endsWith('.vrma')) return readVrma(bytes);
    if (lower.endsWith('.vpd')) return convertVpd(bytes);
  } catch (e) {
    throw new PoseFileError(t('bedroom.file.readFailed', { file: name, detail: (e as Error).message }));
  }
  throw new PoseFileError(t('bedroom.file.notPose', { file: name }));
}

/** A user's sleep pose file as a clip for this avatar (and its motion). */
export async function poseFromFile(name: string, bytes: Uint8Array, vrm: VRM): Promise<PoseMotion> {
  const motion = motionFromPoseFile(name, bytes);
  try {
    return await poseFromMotion(motion, vrm);
  } catch (e) {
    throw new PoseFileError(t('bedroom.file.readFailed', { file: name, detail: (e as Error).message }));
  }
}
