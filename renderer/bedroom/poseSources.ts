/**
 * Where the bedroom's motions come from: the built-in back and side poses and the standing idle
 * (made in code, the idle by the shared assets; written as VRMA and read back through three-vrm-animation like any file), and the
 * user's own sleep pose files (.vrma as is, .vpd converted on the fly).
 */
import type { AnimationClip } from 'three';
import type { VRM } from '@pixiv/three-vrm';
import type { Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import { clipFromVrma } from './loadVrm';
import { makeBackPose, makeSidePose } from './defaultPoses';
import { makeIdleMotion } from '../../shared/assets/walkCycle';
import { convertVpd } from '../../shared/convert/mmd/index';

export function clipFromMotion(motion: Motion, vrm: VRM): Promise<AnimationClip> {
  return clipFromVrma(writeVrma(motion), vrm);
}

export async function builtInClips(vrm: VRM): Promise<{ idle: AnimationClip; back: AnimationClip; side: AnimationClip }> {
  const [idle, back, side] = await Promise.all([
    clipFromMotion(makeIdleMotion(), vrm),
    clipFromMotion(makeBackPose(), vrm),
    clipFromMotion(makeSidePose(), vrm),
  ]);
  return { idle, back, side };
}

export class PoseFileError extends Error {}

/** A user's sleep pose file as a clip; throws PoseFileError with a message a user can act on. */
export async function clipFromPoseFile(name: string, bytes: Uint8Array, vrm: VRM): Promise<AnimationClip> {
  const lower = name.toLowerCase();
  try {
    if (lower.endsWith('.vrma')) return await clipFromVrma(bytes, vrm);
    if (lower.endsWith('.vpd')) return await clipFromMotion(convertVpd(bytes), vrm);
  } catch (e) {
    throw new PoseFileError(`${name} could not be read: ${(e as Error).message}`);
  }
  throw new PoseFileError(`${name} is not a .vrma or .vpd pose`);
}
