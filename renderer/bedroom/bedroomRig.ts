/**
 * Everything that moves the avatar in the bedroom, without a renderer or DOM, so it runs in Node:
 * the mixer with the idle, the sitting pose and the lying poses (back, right side, left side), the
 * body's path from the standing spot into bed, breathing and nods as additive offsets, the face, and
 * the contact with the bed computed from the blended pose of every frame (not from the end poses):
 * whatever the blend, the lowest joint over the mattress rests on it and no joint goes under it.
 */
import {
  AnimationMixer,
  Group,
  LoopRepeat,
  Vector3,
  type AnimationAction,
  type AnimationClip,
  type Object3D,
} from 'three';
import type { VRM, VRMHumanBoneName } from '@pixiv/three-vrm';
import { RigSprings } from './rigSprings';
import { keepFrame } from './keepFrame';
import { Blanket } from './blanket';
import type { Motion, Vec3 } from '../../shared/motion/types';
import { MAIN_BONES, type HumanBoneName } from '../../shared/vrm/humanBones';
import { ZERO_OFFSETS, type LyingPose, type PlacementOffsets } from '../../shared/contract/bedroomSettings';
import { AdditiveOffsets } from './additiveOffsets';
import { Breathing } from './breathing';
import {
  blendPlacement,
  computePlacement,
  computeSitPlacement,
  measurePose,
  restHeight,
  toBedFrame,
  yawVec,
  type BedLayout,
  type Placement,
  type PoseJoints,
  type PoseMeasure,
} from './placement';
import { contactOf, type Contact } from './contact';
import { BodyRest, type PartContacts } from './bodyRest';
import { SleepFace } from './face';
import { easeInOut } from './easing';
import type { Side } from './sleepCycle';

export interface PoseSlot {
  readonly clip: AnimationClip;
  readonly action: AnimationAction;
  readonly measure: PoseMeasure;
  /** The pose as motion data (for the core's pose report and the mirror), when known. */
  readonly motion?: Motion;
  /** Where the pose came from, for messages ("built-in back pose", "mypose.vrma"). */
  readonly label: string;
}

export interface RigFrame {
  readonly e: number;
  readonly lb: number;
  /** Which side pose `lb` blends in (right when absent). */
  readonly side?: Side;
}

/** Share of the recline after which the body settles into the bed (tilts at the hips, bends the neck, lifts limbs out). */
export const SETTLE_FROM = 0.6;

/** Share of the lie-down spent getting into bed (standing spot -> sitting up in bed). */
export const GET_IN_SHARE = 0.35;

/** The two stages of lying down, each eased: getting into bed, then reclining from sitting to lying. */
export function lieStages(e: number): { getIn: number; recline: number } {
  return { getIn: easeInOut(e / GET_IN_SHARE), recline: easeInOut((e - GET_IN_SHARE) / (1 - GET_IN_SHARE)) };
}

export class BedroomRig {
  /** The avatar's parent: placed in the room root's frame. vrm.scene sits inside it untouched. */
  readonly holder = new Group();
  readonly mixer: AnimationMixer;
  readonly offsets = new AdditiveOffsets();
  readonly face: SleepFace;
  /** The body's skin against the bed, part by part (bodyRest.ts). */
  readonly rest: BodyRest;
  /** Breathing and nods on (off only to compare against the bare mixer in tests). */
  additiveEnabled = true;
  /** The spring bones: settled after a jump, meeting the pillow lying (rigSprings.ts). */
  readonly springs: RigSprings;
  /** The blanket over the sleeper, laid again on each frame (blanket.ts). */
  readonly blanket: Blanket;
  private idle: AnimationAction;
  private sit: { action: AnimationAction; joints: PoseJoints };
  private slots: Partial<Record<LyingPose, PoseSlot>> = {};
  private placementOffsets: PlacementOffsets = ZERO_OFFSETS;
  private time = 0;
  /** Breathing and nods (breathing.ts). */
  private readonly breathing = new Breathing();
  private lastFrame: RigFrame = { e: 0, lb: 0 };
  private readonly tmpV = new Vector3();

  constructor(
    readonly vrm: VRM,
    readonly roomRoot: Object3D,
    readonly bed: BedLayout,
    readonly standing: Placement,
    idleClip: AnimationClip,
    sitClip: AnimationClip,
    readonly floorY = 0,
    random?: () => number,
  ) {
    this.holder.name = 'avatar-holder';
    this.holder.add(vrm.scene);
    roomRoot.add(this.holder);
    this.mixer = new AnimationMixer(vrm.scene);
    this.idle = this.mixer.clipAction(idleClip);
    this.idle.setLoop(LoopRepeat, Infinity);
    this.idle.play();
    this.rest = new BodyRest(vrm, roomRoot, bed, floorY);
    const sitAction = this.stillAction(sitClip);
    this.sit = { action: sitAction, joints: {} };
    this.sit = { action: sitAction, joints: this.measure(sitAction).joints };
    this.face = new SleepFace(vrm, random);
    this.springs = new RigSprings(vrm, this.holder, roomRoot, bed);
    this.blanket = new Blanket(bed, this.rest.shape, roomRoot);
  }

  private stillAction(clip: AnimationClip): AnimationAction {
    const action = this.mixer.clipAction(clip);
    action.play();
    action.paused = true;
    action.time = 0;
    action.setEffectiveWeight(0);
    return action;
  }

  /** Install a lying pose (a one-frame clip, played paused at time 0) and measure it once. */
  setPose(which: LyingPose, clip: AnimationClip, label: string, motion?: Motion): PoseSlot {
    const old = this.slots[which];
    if (old) {
      old.action.stop();
      this.mixer.uncacheAction(old.clip);
    }
    // One mixer action per clip: the same pose in two slots would share one weight (the body blinked between poses).
    if (Object.entries(this.slots).some(([k, s]) => k !== which && s?.clip === clip)) clip = clip.clone();
    const action = this.stillAction(clip);
    this.slots[which] = { clip, action, label, motion, measure: { joints: {}, heading: [0, 0, 1] } };
    const m = this.measure(action);
    const slot: PoseSlot = { clip, action, label, motion, measure: measurePose(m.joints, m.headCentre, m.torsoBox) };
    this.slots[which] = slot;
    this.springs.jump();
    return slot;
  }

  pose(which: LyingPose): PoseSlot | undefined {
    return this.slots[which];
  }

  setPlacementOffsets(o: PlacementOffsets): void {
    this.placementOffsets = o;
  }

  /** The body is about to jump (Wake, a restored state): settle the spring bones on the next frame. */
  settleSprings(): void {
    this.springs.jump();
  }

  /** The lying placement of one pose (automatic + the user's offsets), in the room root's frame. */
  placementOf(which: LyingPose): Placement | undefined {
    const slot = this.slots[which];
    return slot && computePlacement(slot.measure, this.bed, this.placementOffsets);
  }

  /** How one pose at full weight meets the bed under its placement (for the pose report). */
  contactOfPose(which: LyingPose): Contact | undefined {
    const slot = this.slots[which];
    const at = this.placementOf(which);
    if (!slot || !at) return undefined;
    const joints: Record<string, Vec3> = {};
    for (const [name, p] of Object.entries(slot.measure.joints)) {
      const r = yawVec(p!, at.yaw);
      joints[name] = toBedFrame([r[0] + at.position[0], r[1] + at.position[1], r[2] + at.position[2]], this.bed);
    }
    return contactOf(joints, this.bed, this.floorY - this.bed.mattressTop);
  }

  /**
   * How the skin of one pose at full weight meets the bed under its placement (the user's offsets
   * included), settled as a frame lying in it would be, with the hair hung against the pillow. For the
   * pose report; the frame on screen is left exactly as it was (keepFrame.ts).
   */
  skinOfPose(which: LyingPose): PartContacts | undefined {
    const slot = this.slots[which];
    const back = this.slots.back;
    if (!slot || !back) return undefined;
    const turns = this.rest.lastTurns;
    const actions = [this.idle, this.sit.action, ...this.poseActions()];
    const saved = actions.map((a) => a.getEffectiveWeight());
    try {
      return keepFrame(this, () => {
        this.offsets.restore();
        for (const a of actions) a.setEffectiveWeight(a === slot.action ? 1 : 0);
        this.mixer.update(0);
        this.offsets.clear();
        this.offsets.apply();
        this.vrm.humanoid.update();
        this.placeBody(1, 1, which === 'back' ? 0 : 1, back, which === 'back' ? undefined : slot);
        this.springs.collideWithBed(true);
        this.springs.settle();
        const skin = this.rest.contacts('all');
        this.offsets.restore();
        // The mixer writes a bone only when its value changed since it last wrote it: give it back the
        // frame's weights and let it write the frame's values, so its record matches the restored bones.
        actions.forEach((a, i) => a.setEffectiveWeight(saved[i] ?? 0));
        this.mixer.update(0);
        return skin;
      });
    } finally {
      actions.forEach((a, i) => a.setEffectiveWeight(saved[i] ?? 0));
      this.rest.lastTurns = turns;
    }
  }

  /** Start a nod and a small smile (the head was patted). */
  nod(): void {
    this.breathing.nod(this.time);
    this.face.smile();
  }

  /** True while a nod is playing. */
  get nodding(): boolean {
    return this.breathing.nodding(this.time);
  }

  /** True while something moves by itself beyond the sleep cycle (a nod, a smile, a blink soon). */
  get frameState(): RigFrame {
    return this.lastFrame;
  }

  /** One frame: offsets off, weights, mixer, offsets on, the body rested on the bed, face, VRM update. */
  update(dt: number, frame: RigFrame): void {
    this.time += dt;
    this.lastFrame = frame;
    this.offsets.restore();
    const { e } = frame;
    const { getIn, recline } = lieStages(e);
    const back = this.slots.back;
    const sideName: LyingPose = frame.side === 'left' ? 'left' : 'right';
    const side = this.slots[sideName];
    // A missing side pose lies on the back: its share goes to the back pose.
    const lb = side ? frame.lb : 0;
    this.idle.setEffectiveWeight(1 - getIn);
    this.sit.action.setEffectiveWeight(getIn * (1 - recline));
    for (const [name, slot] of Object.entries(this.slots) as [LyingPose, PoseSlot][]) {
      const w = name === 'back' ? recline * (1 - lb) : name === sideName ? recline * lb : 0;
      slot.action.setEffectiveWeight(w);
    }
    this.mixer.update(dt);
    this.composeOffsets(recline, lb);
    this.offsets.apply();
    this.vrm.humanoid.update();
    this.placeBody(getIn, recline, lb, back, side);
    this.face.update(dt, e);
    this.springs.beforeUpdate(recline > 0);
    this.vrm.update(dt);
    this.blanketDue = { getIn, recline };
  }

  private blanketDue: { getIn: number; recline: number } | null = null;

  /** Lay the blanket over the last frame's body, once, to draw it (the page's frame calls it; Node tests need not). */
  layBlanket(): void {
    if (this.blanketDue) this.blanket.layOver(this.rest.joints(), this.rest.surface.sample(), this.blanketDue.getIn, this.blanketDue.recline);
    this.blanketDue = null;
  }

  private placeBody(getIn: number, recline: number, lb: number, back?: PoseSlot, side?: PoseSlot): void {
    let body = this.standing;
    let onBed = false;
    if (back && getIn > 0) {
      const sit = computeSitPlacement(this.sit.joints, this.bed, this.placementOffsets);
      const backAt = computePlacement(back.measure, this.bed, this.placementOffsets);
      const lying = side ? blendPlacement(backAt, computePlacement(side.measure, this.bed, this.placementOffsets), lb) : backAt;
      body = recline > 0 ? blendPlacement(sit, lying, recline) : blendPlacement(this.standing, sit, getIn);
      onBed = true;
    }
    const yaw = body.yaw;
    this.holder.position.set(body.position[0], 0, body.position[2]);
    this.holder.rotation.set(0, yaw, 0);
    if (!onBed) {
      this.holder.position.y = body.position[1];
      return;
    }
    // On the bed the height comes from the skin of the pose as it is now (this frame's blend, settled
    // by bodyRest.ts), never from the end poses: the lowest point of the body rests on what is under it.
    const trial = restHeight(this.jointsInHolderFrame(), this.bed, this.floorY, body.position, yaw).height;
    this.holder.position.y = trial;
    this.rest.settle(this.offsets, easeInOut((recline - SETTLE_FROM) / (1 - SETTLE_FROM)), lb);
    const rest = trial - this.rest.lowestGap();
    // Reclining, the body lies on the bed; getting in, it rises from the floor along its path but is
    // never let into the mattress.
    const y = recline > 0 ? rest : Math.max(this.standing.position[1] * (1 - getIn) + rest * getIn, rest);
    this.holder.position.y = y + this.placementOffsets.up * recline;
  }

  /** The main joints of the current pose in the holder's own frame (the avatar's unplaced frame). */
  private jointsInHolderFrame(): Vec3[] {
    this.holder.updateWorldMatrix(true, true);
    const out: Vec3[] = [];
    for (const name of MAIN_BONES) {
      const node = this.vrm.humanoid.getRawBoneNode(name as VRMHumanBoneName);
      if (!node) continue;
      node.getWorldPosition(this.tmpV);
      this.holder.worldToLocal(this.tmpV);
      out.push([this.tmpV.x, this.tmpV.y, this.tmpV.z]);
    }
    return out;
  }

  private composeOffsets(recline: number, lb: number): void {
    this.offsets.clear();
    if (this.additiveEnabled) this.breathing.compose(this.offsets, this.vrm.humanoid, this.time, recline * (1 - lb));
  }

  /** The breathing phase (0..1 over one breath) and how much of it shows (0 awake or on a side .. 1 on the back). */
  breath(): { phase: number; depth: number } {
    const { recline } = lieStages(this.lastFrame.e);
    const lb = this.slots.right || this.slots.left ? this.lastFrame.lb : 0;
    return { phase: this.breathing.phase(this.time), depth: this.additiveEnabled ? recline * (1 - lb) : 0 };
  }

  /**
   * Joint positions of one pose at full weight, avatar at the origin facing +Z, taken in the
   * holder's parent's frame (the room root), so a moved room does not change the result.
   */
  private measure(action: AnimationAction): { joints: PoseJoints; headCentre: Vec3 | null; torsoBox: Vec3[] } {
    this.offsets.restore();
    const weights = [this.idle, this.sit?.action, ...this.poseActions()].filter((a): a is AnimationAction => !!a);
    const saved = weights.map((a) => a.getEffectiveWeight());
    if (!weights.includes(action)) weights.push(action);
    for (const a of weights) a.setEffectiveWeight(a === action ? 1 : 0);
    const pos = this.holder.position.clone();
    const quat = this.holder.quaternion.clone();
    this.holder.position.set(0, 0, 0);
    this.holder.quaternion.identity();
    this.mixer.update(0);
    this.vrm.humanoid.update();
    const joints = this.jointsInParentFrame();
    const headCentre = this.rest.surface.partCentre('head');
    const torsoBox = this.rest.surface.partBox('torso');
    weights.forEach((a, i) => a.setEffectiveWeight(saved[i] ?? 0));
    this.holder.position.copy(pos);
    this.holder.quaternion.copy(quat);
    this.mixer.update(0);
    this.vrm.humanoid.update();
    return { joints, headCentre, torsoBox };
  }

  private poseActions(): AnimationAction[] {
    return Object.values(this.slots).map((s) => s!.action);
  }

  /** World positions of the main bones (raw skeleton) expressed in the holder's parent's frame. */
  jointsInParentFrame(): Partial<Record<HumanBoneName, Vec3>> {
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
    for (const clip of [this.idle.getClip(), this.sit.action.getClip(), ...Object.values(this.slots).map((s) => s!.clip)]) {
      for (const t of clip.tracks) names.add(t.name.slice(0, t.name.lastIndexOf('.')));
    }
    return names;
  }

  dispose(): void {
    this.offsets.restore();
    this.mixer.stopAllAction();
    this.mixer.uncacheRoot(this.vrm.scene);
    this.holder.removeFromParent();
    this.springs.dispose();
    this.blanket.dispose();
  }
}
