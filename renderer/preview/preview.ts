/**
 * Plays a Motion on a VRM with our own clock: the action stays paused, its time is set and the
 * mixer is updated by zero, so the pose on screen is exactly the clip's pose at `time`.
 */
import * as THREE from 'three';
import type { Motion } from '../../shared/motion/types';
import type { LoadedAvatar } from '../avatar/loadAvatar';
import { VRMLookAtQuaternionProxy } from '@pixiv/three-vrm-animation';
import { ClipBuilder } from './clipBuilder';

export class Preview {
  readonly mixer: THREE.AnimationMixer;
  private readonly builder: ClipBuilder;
  private action: THREE.AnimationAction | null = null;
  private clip: THREE.AnimationClip | null = null;
  private stale = false;
  /** The Motion the current clip was built from (what export writes). */
  motion: Motion | null = null;

  constructor(readonly avatar: LoadedAvatar) {
    this.mixer = new THREE.AnimationMixer(avatar.vrm.scene);
    this.builder = new ClipBuilder(avatar.vrm, avatar.metaVersion);
  }

  /**
   * Plays `motion` from now on. A clip three.js refuses (it throws on a track without keys) throws here
   * before anything changed: the avatar still shows the motion before, and the studio says why.
   */
  setMotion(motion: Motion): void {
    if (motion === this.motion) return;
    const clip = this.builder.build(motion);
    // The new action is made while the old one still holds its bindings: the tracks an edit left under
    // the same names keep their PropertyMixers (no node search and name parse per track per edit).
    const action = this.mixer.clipAction(clip);
    if (this.action && this.clip) {
      this.action.stop();
      this.mixer.uncacheClip(this.clip);
    }
    // Bones the new clip does not animate go back to rest; the new bindings start from this state.
    this.resetNodes();
    this.action = action;
    this.action.play();
    this.action.paused = true;
    this.clip = clip;
    this.motion = motion;
    this.stale = false;
  }

  private resetNodes(): void {
    this.avatar.vrm.humanoid.resetNormalizedPose();
    this.avatar.vrm.expressionManager?.resetValues();
    // The gaze too (eyes ahead): the lookAt proxy's rotation sets VRMLookAt's yaw/pitch. Left as it
    // was, a motion without a lookAt track kept the last gaze, and a mixer bound afterwards took that
    // for the original value and skipped writing an equal one (the eyes then showed the reset gaze).
    const proxy = this.avatar.vrm.scene.children.find((o) => o instanceof VRMLookAtQuaternionProxy);
    proxy?.quaternion.identity();
    this.avatar.vrm.lookAt?.reset();
  }

  /** Back to the normalized rest pose (framing, reference checks); the next applyAt poses the clip again. */
  resetPose(): void {
    this.resetNodes();
    this.invalidate();
  }

  /**
   * Something other than the mixer moved the nodes (a gizmo, a reset). three.js's PropertyMixer only
   * writes values that changed since its own last write, so the bindings are restarted before the
   * next pose to compare against what the nodes hold now.
   */
  invalidate(): void {
    this.stale = true;
  }

  /** Poses the avatar at time t (seconds). `skipMixer` keeps a gizmo-dragged node where the user holds it. */
  applyAt(t: number, dt = 0, skipMixer = false): void {
    if (!skipMixer) this.mix(t);
    this.avatar.vrm.update(dt);
  }

  /**
   * Poses only the humanoid bones at time t (and the node constraints that may follow them): where the
   * bones are, for framing (motionBounds.ts), without the expressions, gaze, springs and materials a
   * drawn frame needs (most of a pose's cost). The next applyAt poses all of it.
   */
  poseBonesAt(t: number): void {
    this.mix(t);
    this.avatar.vrm.humanoid.update();
    this.avatar.vrm.nodeConstraintManager?.update();
  }

  private mix(t: number): void {
    if (!this.action) return;
    if (this.stale) {
      this.action.stop();
      this.resetNodes();
      this.action.play();
      this.action.paused = true;
      this.stale = false;
    }
    this.action.time = t;
    this.mixer.update(0);
  }

  dispose(): void {
    this.mixer.stopAllAction();
    if (this.clip) this.mixer.uncacheClip(this.clip);
  }
}
