/**
 * Everything that moves the avatar in the bedroom, without a renderer or DOM, so it runs in Node:
 * the mixer with the idle and the two lying poses, the weights (idle 1 - e, side e·lb, back
 * e·(1 - lb)), the body's blend from the standing spot to the lying placement, breathing and nods
 * as additive offsets, and the one-off measurement of each pose for the automatic placement.
 */
import {
  AnimationMixer, Group, LoopRepeat, Quaternion, Vector3, type AnimationAction, type AnimationClip, type Object3D,
} from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import type { Quat, Vec3 } from '../../shared/motion/types';
import { MAIN_BONES, type HumanBoneName } from '../../shared/vrm/humanBones';
import { AdditiveOffsets } from './additiveOffsets';
import {
  blendPlacement, computePlacement, measurePose, type BedLayout, type Placement, type PoseJoints, type PoseMeasure,
} from './placement';
import { sleepPoseReport, type SleepPoseReport } from './poseReport';
import { ZERO_OFFSETS, type LyingPose, type PlacementOffsets } from './settings';

export interface PoseSlot {
  readonly clip: AnimationClip;
  readonly action: AnimationAction;
  readonly measure: PoseMeasure;
  readonly report: SleepPoseReport;
  /** Where the file came from, for messages ("built-in back pose", "mypose.vrma"). */
  readonly label: string;
}

export interface RigFrame {
  readonly e: number;
  readonly lb: number;
}

const BREATH_PERIOD = 4.2;
const BREATH_DEG = 1.6;
const NOD_SEC = 1.2;
const NOD_DEG = 16;
const X_AXIS = new Vector3(1, 0, 0);
const DEG = Math.PI / 180;

export class BedroomRig {
  /** The avatar's parent: placed in the room root's frame. vrm.scene sits inside it untouched. */
  readonly holder = new Group();
  readonly mixer: AnimationMixer;
  readonly offsets = new AdditiveOffsets();
  /** Breathing and nods on (off only to compare against the bare mixer in tests). */
  additiveEnabled = true;
  private idle: AnimationAction;
  private slots: Partial<Record<LyingPose, PoseSlot>> = {};
  private placementOffsets: PlacementOffsets = ZERO_OFFSETS;
  private time = 0;
  private nodStart = -Infinity;
  private lastFrame: RigFrame = { e: 0, lb: 0 };
  private readonly tmpQ = new Quaternion();

  constructor(
    readonly vrm: VRM,
    readonly roomRoot: Object3D,
    readonly bed: BedLayout,
    readonly standing: Placement,
    idleClip: AnimationClip,
  ) {
    this.holder.name = 'avatar-holder';
    this.holder.add(vrm.scene);
    roomRoot.add(this.holder);
    this.mixer = new AnimationMixer(vrm.scene);
    this.idle = this.mixer.clipAction(idleClip);
    this.idle.setLoop(LoopRepeat, Infinity);
    this.idle.play();
  }

  /** Install a lying pose (a one-frame clip, played paused at time 0) and measure it once. */
  setPose(which: LyingPose, clip: AnimationClip, label: string): PoseSlot {
    const old = this.slots[which];
    if (old) {
      old.action.stop();
      this.mixer.uncacheAction(old.clip);
    }
    const action = this.mixer.clipAction(clip);
    action.play();
    action.paused = true;
    action.time = 0;
    action.setEffectiveWeight(0);
    this.slots[which] = { clip, action, label, measure: { joints: {}, heading: [0, 0, 1] }, report: sleepPoseReport({}, {}) };
    const measured = this.measure(action);
    const slot: PoseSlot = { clip, action, label, measure: measured.measure, report: sleepPoseReport(measured.measure.joints, measured.rotations) };
    this.slots[which] = slot;
    return slot;
  }

  pose(which: LyingPose): PoseSlot | undefined {
    return this.slots[which];
  }

  setPlacementOffsets(o: PlacementOffsets): void {
    this.placementOffsets = o;
  }

  /** The lying placement of one pose (automatic + the user's offsets), in the room root's frame. */
  placementOf(which: LyingPose): Placement | undefined {
    const slot = this.slots[which];
    return slot && computePlacement(slot.measure, this.bed, this.placementOffsets);
  }

  /** Start a nod (the head was clicked). */
  nod(): void {
    this.nodStart = this.time;
  }

  /** True while a nod is playing. */
  get nodding(): boolean {
    const u = (this.time - this.nodStart) / NOD_SEC;
    return u >= 0 && u < 1;
  }

  get frameState(): RigFrame {
    return this.lastFrame;
  }

  /** One frame: offsets off, weights, mixer, offsets on, body placement, VRM update. */
  update(dt: number, frame: RigFrame): void {
    this.time += dt;
    this.lastFrame = frame;
    this.offsets.restore();
    const { e, lb } = frame;
    const back = this.slots.back;
    const side = this.slots.side ?? back;
    // A missing side pose lies on the back: its share goes to the back pose.
    const sideShare = this.slots.side ? lb : 0;
    this.idle.setEffectiveWeight(1 - e);
    if (back) back.action.setEffectiveWeight(e * (1 - sideShare));
    if (this.slots.side) this.slots.side.action.setEffectiveWeight(e * sideShare);
    this.mixer.update(dt);
    this.composeOffsets(e, sideShare);
    this.offsets.apply();
    this.placeBody(e, sideShare, back, side);
    this.vrm.update(dt);
  }

  private placeBody(e: number, lb: number, back?: PoseSlot, side?: PoseSlot): void {
    let body = this.standing;
    if (back && side) {
      const lying = blendPlacement(
        computePlacement(back.measure, this.bed, this.placementOffsets),
        computePlacement(side.measure, this.bed, this.placementOffsets),
        lb,
      );
      body = blendPlacement(this.standing, lying, e);
    }
    this.holder.position.set(body.position[0], body.position[1], body.position[2]);
    this.holder.rotation.set(0, body.yaw, 0);
  }

  private composeOffsets(e: number, lb: number): void {
    this.offsets.clear();
    if (!this.additiveEnabled) return;
    const h = this.vrm.humanoid;
    const breath = e * (1 - lb) * BREATH_DEG * DEG * Math.sin((2 * Math.PI * this.time) / BREATH_PERIOD);
    if (breath !== 0) {
      for (const name of ['spine', 'upperChest'] as const) {
        const bone = h.getNormalizedBoneNode(name);
        if (bone) this.offsets.add(bone, this.tmpQ.setFromAxisAngle(X_AXIS, -breath));
      }
    }
    const u = (this.time - this.nodStart) / NOD_SEC;
    if (u >= 0 && u < 1) {
      const nod = Math.sin(Math.PI * u) ** 2 * NOD_DEG * DEG;
      for (const [name, share] of [['neck', 0.4], ['head', 0.6]] as const) {
        const bone = h.getNormalizedBoneNode(name);
        if (bone) this.offsets.add(bone, this.tmpQ.setFromAxisAngle(X_AXIS, nod * share));
      }
    }
  }

  /**
   * Joint positions of one pose at full weight, avatar at the origin facing +Z, taken in the
   * holder's parent's frame (the room root), so a moved room does not change the result.
   */
  private measure(action: AnimationAction): { measure: PoseMeasure; rotations: Partial<Record<HumanBoneName, Quat>> } {
    this.offsets.restore();
    const weights = [this.idle, ...this.poseActions()];
    const saved = weights.map((a) => a.getEffectiveWeight());
    for (const a of weights) a.setEffectiveWeight(a === action ? 1 : 0);
    const pos = this.holder.position.clone();
    const quat = this.holder.quaternion.clone();
    this.holder.position.set(0, 0, 0);
    this.holder.quaternion.identity();
    this.mixer.update(0);
    this.vrm.humanoid.update();
    const joints = this.jointsInParentFrame();
    const rotations: Partial<Record<HumanBoneName, Quat>> = {};
    for (const name of MAIN_BONES) {
      const q = this.vrm.humanoid.getNormalizedBoneNode(name as VRMHumanBoneName)?.quaternion;
      if (q) rotations[name] = [q.x, q.y, q.z, q.w];
    }
    weights.forEach((a, i) => a.setEffectiveWeight(saved[i]));
    this.holder.position.copy(pos);
    this.holder.quaternion.copy(quat);
    this.mixer.update(0);
    this.vrm.humanoid.update();
    return { measure: measurePose(joints), rotations };
  }

  private poseActions(): AnimationAction[] {
    return Object.values(this.slots).map((s) => s!.action);
  }

  /** World positions of the main bones (raw skeleton) expressed in the holder's parent's frame. */
  jointsInParentFrame(): PoseJoints {
    const parent = this.holder.parent ?? this.holder;
    parent.updateWorldMatrix(true, true);
    const out: Partial<Record<HumanBoneName, Vec3>> = {};
    const v = new Vector3();
    for (const name of MAIN_BONES) {
      const node = this.vrm.humanoid.getRawBoneNode(name as VRMHumanBoneName);
      if (!node) continue;
      node.getWorldPosition(v);
      if (this.holder.parent) this.holder.parent.worldToLocal(v);
      out[name] = [v.x, v.y, v.z];
    }
    return out;
  }

  /** Names of the normalized bone nodes some clip of the mixer animates. */
  animatedNodeNames(): Set<string> {
    const names = new Set<string>();
    for (const clip of [this.idle.getClip(), ...Object.values(this.slots).map((s) => s!.clip)]) {
      for (const t of clip.tracks) names.add(t.name.slice(0, t.name.lastIndexOf('.')));
    }
    return names;
  }

  dispose(): void {
    this.offsets.restore();
    this.mixer.stopAllAction();
    this.mixer.uncacheRoot(this.vrm.scene);
    this.holder.removeFromParent();
  }
}
