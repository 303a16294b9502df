/**
 * Plays a Motion on a VRM with our own clock: the action stays paused, its time is set and the
 * mixer is updated by zero, so the pose on screen is exactly the clip's pose at `time`.
 */
import * as THREE from 'three';
import type { Motion } from '../../shared/motion/types';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { ClipBuilder } from './clipBuilder';

export class Preview {
  readonly mixer: THREE.AnimationMixer;
  private readonly builder: ClipBuilder;
  private action: THREE.AnimationAction | null = null;
  private clip: THREE.AnimationClip | null = null;
  /** The Motion the current clip was built from (what export writes). */
  motion: Motion | null = null;

  constructor(readonly avatar: LoadedAvatar) {
    this.mixer = new THREE.AnimationMixer(avatar.vrm.scene);
    this.builder = new ClipBuilder(avatar.vrm, avatar.metaVersion);
  }

  setMotion(motion: Motion): void {
    if (motion === this.motion) return;
    const clip = this.builder.build(motion);
    const old = this.action;
    const oldClip = this.clip;
    this.resetPose();
    this.action = this.mixer.clipAction(clip);
    this.action.play();
    this.action.paused = true;
    this.clip = clip;
    this.motion = motion;
    if (old && oldClip) {
      old.stop();
      this.mixer.uncacheAction(oldClip);
      this.mixer.uncacheClip(oldClip);
    }
  }

  /** Back to the normalized rest pose, so bones a new clip does not animate do not keep old values. */
  resetPose(): void {
    this.avatar.vrm.humanoid.resetNormalizedPose();
    this.avatar.vrm.expressionManager?.resetValues();
  }

  /** Poses the avatar at time t (seconds). `skipMixer` keeps a gizmo-dragged node where the user holds it. */
  applyAt(t: number, dt = 0, skipMixer = false): void {
    if (this.action && !skipMixer) {
      this.action.time = t;
      this.mixer.update(0);
    }
    this.avatar.vrm.update(dt);
  }

  dispose(): void {
    this.mixer.stopAllAction();
    if (this.clip) this.mixer.uncacheClip(this.clip);
  }
}
