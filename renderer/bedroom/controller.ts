/**
 * The bedroom's controller: it owns the settings (read once, sanitized, saved on change), the sleep
 * cycle, the panel's events, the status line (one text per phase of the state machine, or the
 * answer to the last action until the phase changes), the pose report, the head pat, the breathing
 * sound and what moves each frame. The picture is scene.ts, the body rig.ts, the poses poseFiles.ts.
 */
import { Vector3 } from 'three';
import { VRMUtils, type VRM } from '@pixiv/three-vrm';
import { makeMannequinVrm } from '../../shared/assets/mannequin';
import {
  DEFAULT_BEDROOM_SETTINGS,
  placementOf,
  sanitizeBedroomSettings,
  withPlacement,
  ZERO_OFFSETS,
  type BedroomSettings,
  type LyingPose,
  type PlacementOffsets,
  type PoseSlot,
} from '../../shared/contract/bedroomSettings';
import { BedroomRig } from './bedroomRig';
import { BreathSound } from './breathSound';
import { SimClock } from './simClock';
import type { BedroomContext } from './context';
import { buildControls, type Controls } from './controls';
import { loadVrm } from './loadVrm';
import { fileLabel, PoseFiles, type PoseFileResult } from './poseFiles';
import { PoseFileWatch } from './poseFileWatch';
import { sleepPoseReport, type SleepPoseReport } from './poseReport';
import { contactFigures } from './contactFigures';
import { builtInClips } from './poseSources';
import type { BedroomView } from './scene';
import { SleepCycle, type SleepPhase, type SleepSnapshot, type SleepState } from './sleepCycle';
import { formatList, onLocaleChange, t } from '../../shared/i18n';
import { phaseText, poseWords, slotWords } from './words';

/**
 * The sleep cycle of the last bedroom shown in this page: a bedroom mounted again (after a visit to
 * the studio) carries on from it, so an avatar asleep stays asleep.
 */
let keptCycle: SleepSnapshot | null = null;

export class BedroomController {
  settings: BedroomSettings;
  readonly controls: Controls;
  readonly cycle: SleepCycle;
  readonly sound = new BreathSound();
  vrm: VRM | null = null;
  rig: BedroomRig | null = null;
  poses: PoseFiles | null = null;
  readonly ready: Promise<void>;
  private avatarName: string;
  private offsets: PlacementOffsets;
  /** The cycle reads a clock that the test hook can speed up. */
  private readonly clock = new SimClock();
  private disposed = false;
  /** The answer to the last action; shown until the phase changes (errors until the next action). */
  private message: { text: () => string; kind: 'info' | 'error'; phase: SleepPhase } | null = null;
  private unsubscribeLocale: () => void;
  private shownPhase = '';
  private reportedPose: LyingPose | null = null;
  private readonly poseFileWatch: PoseFileWatch;
  private lastState: SleepState;

  constructor(
    readonly ctx: BedroomContext,
    readonly view: BedroomView,
  ) {
    try {
      this.settings = sanitizeBedroomSettings(ctx.settings.get());
    } catch {
      this.settings = DEFAULT_BEDROOM_SETTINGS;
    }
    const avatar = ctx.getAvatar();
    this.avatarName = avatar.bytes.length ? avatar.name : 'mannequin';
    this.offsets = placementOf(this.settings, this.avatarName);
    this.cycle = new SleepCycle({ now: () => this.clock.now(), pose: this.settings.pose, autoTurn: this.settings.autoTurn, autoSec: this.settings.autoSec, sides: this.settings.sides });
    if (keptCycle) this.cycle.restore(keptCycle);
    this.lastState = this.cycle.tick();
    this.sound.muted = this.settings.sound.muted;
    this.sound.volume = this.settings.sound.volume;
    this.controls = buildControls({
      sleep: () =>
        this.act(() => {
          this.sound.unlock();
          this.cycle.sleep();
        }),
      wake: () => this.act(() => this.cycle.wake()),
      turnOver: () => this.act(() => this.turnOver()),
      choosePose: (pose) =>
        this.act(() => {
          this.cycle.choosePose(pose);
          this.save({ ...this.settings, pose: this.cycle.tick().pose });
          this.showReport(this.cycle.tick().pose);
        }),
      setSides: (sides) =>
        this.act(() => {
          this.cycle.setSides(sides);
          this.save({ ...this.settings, sides, pose: this.cycle.tick().pose });
          this.controls.showSettings(this.settings, this.offsets);
        }),
      setAutoTurn: (on) => this.act(() => this.setAutoTurn(on)),
      setAutoSec: (sec) => this.act(() => this.setAutoSec(sec)),
      setOffsets: (offsets, final) => this.setOffsets(offsets, final),
      resetPlacement: () =>
        this.act(() => {
          this.setOffsets(ZERO_OFFSETS, true);
          this.controls.showSettings(this.settings, this.offsets);
          this.say(() => t('bedroom.msg.placementReset'));
        }),
      loadPoseFile: (file, slot) => void file.arrayBuffer().then((buf) => this.usePoseFile(file.name, new Uint8Array(buf), slot)),
      choosePoseFromFolders: (path, slot) => void (path ? this.usePosePath(path, slot) : this.useBuiltIn(slot)),
      view: (name) => {
        this.view.cameraRig.setView(name);
        this.view.invalidate();
      },
      setSound: (muted, volume, final) => {
        this.sound.muted = muted;
        this.sound.volume = volume;
        this.sound.unlock();
        if (final) this.save({ ...this.settings, sound: { muted, volume } });
        this.view.invalidate();
      },
      enterVr: () => this.onEnterVr?.(),
    });
    this.poseFileWatch = new PoseFileWatch(ctx, (files) => this.controls.setPoseFiles(files, this.settings.poseFiles));
    this.controls.showSettings(this.settings, this.offsets);
    this.controls.setSleeping(false);
    this.controls.setStatus(t('bedroom.status.loading'));
    // A language switch rewrites what was computed: the status line, the report, the lists.
    this.unsubscribeLocale = onLocaleChange(() => {
      const s = this.cycle.tick();
      this.controls.setStatus(this.message ? this.message.text() : this.rig ? phaseText(s.phase, s.pose) : t('bedroom.status.loading'), this.message?.kind);
      if (this.reportedPose) this.showReport(this.reportedPose);
      this.controls.setPoseFiles(this.poseFileWatch.files, this.settings.poseFiles);
      this.controls.showSettings(this.settings, this.offsets);
      this.view.invalidate();
    });
    view.onFrame = (dt) => this.frame(dt);
    view.animating = () => this.animating();
    this.ready = this.load(avatar.bytes);
  }

  /** Set by the VR module when the browser offers immersive VR. */
  onEnterVr: (() => void) | null = null;

  setTimeScale(k: number): void {
    this.clock.setScale(k);
  }

  /** A user action: clears an old answer, runs, and draws. */
  act(fn: () => void): void {
    this.message = null;
    fn();
    this.view.invalidate();
  }

  turnOver(): boolean {
    const turned = this.cycle.turnOver();
    if (!turned) {
      this.say(() => t('bedroom.msg.turnRefused'));
      return false;
    }
    this.save({ ...this.settings, pose: this.cycle.tick().pose });
    this.controls.showSettings(this.settings, this.offsets);
    return true;
  }

  setAutoTurn(on: boolean): void {
    this.cycle.setAutoTurn(on);
    this.save({ ...this.settings, autoTurn: on });
    this.controls.showSettings(this.settings, this.offsets);
  }

  setAutoSec(sec: number): void {
    this.cycle.setAutoSec(sec);
    this.save({ ...this.settings, autoSec: sec });
    this.controls.showSettings(this.settings, this.offsets);
  }

  setOffsets(offsets: PlacementOffsets, final: boolean): void {
    this.offsets = offsets;
    this.rig?.setPlacementOffsets(offsets);
    const next = withPlacement(this.settings, this.avatarName, offsets);
    if (final) {
      this.save(next);
      this.showReport(this.cycle.tick().pose);
    } else this.settings = next;
    this.view.invalidate();
  }

  get placement(): PlacementOffsets {
    return this.offsets;
  }

  private save(next: BedroomSettings): void {
    this.settings = next;
    try {
      this.ctx.settings.set(next);
    } catch (e) {
      this.say(() => t('bedroom.msg.settingsFailed', { detail: (e as Error).message }), 'error');
    }
  }

  /** Answer an action on the status line (`text` is rendered again after a language switch). */
  say(text: () => string, kind: 'info' | 'error' = 'info'): void {
    this.message = { text, kind, phase: this.lastState.phase };
    this.controls.setStatus(text(), kind);
    this.view.invalidate();
  }

  report(pose: LyingPose): SleepPoseReport | null {
    const slot = this.rig?.pose(pose);
    if (!slot || !this.rig) return null;
    const skin = this.rig.skinOfPose(pose);
    return sleepPoseReport(slot.motion, this.rig.contactOfPose(pose), skin && { figures: contactFigures(skin, pose !== 'back'), onSide: pose !== 'back', up: this.offsets.up });
  }

  private showReport(pose: LyingPose): void {
    const r = this.report(pose);
    const slot = this.rig?.pose(pose);
    if (!r || !slot) return;
    this.reportedPose = pose;
    this.controls.setReport(r.lines, r.warnings, t('bedroom.report.title', { pose: poseWords(pose), label: slot.label }));
  }

  private async load(bytes: Uint8Array): Promise<void> {
    let vrm: VRM;
    try {
      vrm = await loadVrm(bytes.length ? bytes : makeMannequinVrm(), [], this.view.renderer);
    } catch (e) {
      this.say(() => t('bedroom.msg.avatarFailed', { detail: (e as Error).message }), 'error');
      return;
    }
    if (this.disposed) {
      VRMUtils.deepDispose(vrm.scene);
      return;
    }
    const clips = await builtInClips(vrm);
    if (this.disposed) return;
    this.vrm = vrm;
    const room = this.view.room;
    this.rig = new BedroomRig(vrm, room.root, room.bed, room.standing, clips.idle, clips.sit, room.floorY);
    this.rig.setPlacementOffsets(this.offsets);
    this.poses = new PoseFiles(this.ctx, vrm, this.rig, clips);
    await this.poses.installBuiltIn('back');
    await this.poses.installBuiltIn('side');
    if (this.disposed) return;
    this.controls.setPoseFiles(this.poseFileWatch.files, this.settings.poseFiles);
    for (const slot of ['back', 'side'] as const) {
      const path = this.settings.poseFiles[slot];
      if (!path) continue;
      const r = await this.poses.usePath(path, slot);
      if (this.disposed) return;
      if (!r.ok) {
        this.forget(slot);
        this.say(r.message, 'error');
      }
    }
    this.showReport(this.cycle.tick().pose);
    const files = Object.entries(this.settings.poseFiles) as [PoseSlot, string][];
    // (A bedroom that carries on asleep from the last visit says so through its phase instead.)
    if (!this.message && files.length && !this.cycle.tick().sleeping) {
      this.say(() => t('bedroom.msg.awakeWith', { files: formatList(files.map(([slot, p]) => t('bedroom.msg.fileAs', { file: fileLabel(p), slot: slotWords(slot) }))) }));
    }
    this.view.invalidate();
    // The list follows the opened folders.
    await this.poseFileWatch.start();
  }

  private forget(slot: PoseSlot): void {
    const files = { ...this.settings.poseFiles };
    delete files[slot];
    this.save({ ...this.settings, poseFiles: files });
    this.controls.setPoseFiles(this.poseFileWatch.files, files);
  }

  private async afterPoseFile(r: PoseFileResult, path: string, slot: PoseSlot): Promise<void> {
    if (this.disposed) return;
    if (r.ok) {
      const files = { ...this.settings.poseFiles };
      if (r.remember) files[slot] = path;
      else delete files[slot];
      this.save({ ...this.settings, poseFiles: files });
      // Show the slot just filled (choosing it when awake), with a warning if it is not a lying pose.
      if (!this.cycle.tick().sleeping) {
        const pose: LyingPose = slot === 'back' ? 'back' : this.cycle.tick().pose === 'left' ? 'left' : 'right';
        this.cycle.choosePose(pose);
        this.save({ ...this.settings, pose: this.cycle.tick().pose });
        this.controls.showSettings(this.settings, this.offsets);
      }
      const report = this.report(slot === 'back' ? 'back' : 'right');
      const deg = Math.round(report?.figures?.torsoElevation ?? 90);
      if (report?.notLying) this.say(() => t('bedroom.msg.notLying', { message: r.message(), deg }), 'error');
      else this.say(r.message);
    } else {
      this.forget(slot);
      this.say(r.message, 'error');
    }
    this.controls.setPoseFiles(this.poseFileWatch.files, this.settings.poseFiles);
    this.showReport(this.cycle.tick().pose);
  }

  async usePoseFile(name: string, bytes: Uint8Array, slot: PoseSlot): Promise<void> {
    if (!this.poses) return;
    this.message = null;
    const r = await this.poses.useFile(name, bytes, slot);
    await this.afterPoseFile(r, name, slot);
  }

  async usePosePath(path: string, slot: PoseSlot): Promise<void> {
    if (!this.poses) return;
    this.message = null;
    const r = await this.poses.usePath(path, slot);
    await this.afterPoseFile(r, path, slot);
  }

  private async useBuiltIn(slot: PoseSlot): Promise<void> {
    if (!this.poses) return;
    await this.poses.installBuiltIn(slot);
    this.forget(slot);
    this.say(() => t('bedroom.msg.builtInBack', { slot: slotWords(slot) }));
    this.showReport(this.cycle.tick().pose);
    this.view.invalidate();
  }

  /** Pat the head: a nod and a small smile. */
  pat(): void {
    this.rig?.nod();
    this.view.invalidate();
  }

  /** Whether the head is near a world point (a click or a controller touching it). */
  headNear(p: Vector3, within = 0.3): boolean {
    const head = this.vrm?.humanoid.getRawBoneNode('head');
    return !!head && head.getWorldPosition(new Vector3()).distanceTo(p) < within;
  }

  private frame(dt: number): void {
    const s = this.cycle.tick();
    this.lastState = s;
    if (this.rig) {
      this.rig.update(dt * this.clock.scale, s);
      this.rig.layBlanket();
      this.sound.update(this.rig.breath());
    }
    this.controls.setSleeping(s.sleeping);
    // An automatic turn-over changes the pose: the Lying pose control (and the pose kept) follow it.
    if (s.pose !== this.settings.pose) {
      this.save({ ...this.settings, pose: s.pose });
      this.controls.showSettings(this.settings, this.offsets);
    }
    if (this.message && this.message.kind === 'info' && this.message.phase !== s.phase) this.message = null;
    // The phase's text, once per phase (an answer to an action holds the line until the phase changes).
    const key = `${s.phase}:${s.pose}`;
    if (this.message || !this.rig) this.shownPhase = '';
    else if (key !== this.shownPhase) {
      this.controls.setStatus(phaseText(s.phase, s.pose));
      this.shownPhase = key;
    }
    if (this.rig && s.pose !== this.reportedPose) this.showReport(s.pose);
    this.controls.setNextTurn(s.nextTurnIn === null ? '' : t('bedroom.nextTurn', { seconds: Math.ceil(s.nextTurnIn) }));
  }

  /**
   * Anything moving by itself: the idle (awake), lying down, turning over, breathing, a nod or smile.
   * Asleep on a side nothing moves: only the countdown runs, redrawn once a second by a timer (and
   * at the moment the turn-over is due), not every frame.
   */
  private animating(): boolean {
    clearTimeout(this.tickTimer);
    if (!this.rig) return false;
    const s = this.cycle.tick();
    if (s.phase !== 'asleep') return true;
    if (this.rig.nodding || this.rig.face.smiling) return true;
    if (this.rig.breath().depth > 0) return true;
    if (s.nextTurnIn !== null) {
      // Until the shown whole second changes (or the turn-over is due).
      const wait = (s.nextTurnIn % 1 || 1) / Math.max(1e-3, this.clock.scale);
      this.tickTimer = setTimeout(() => this.view.invalidate(), Math.max(16, wait * 1000));
    }
    return false;
  }
  private tickTimer: ReturnType<typeof setTimeout> | undefined;

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    keptCycle = this.cycle.snapshot();
    this.unsubscribeLocale();
    clearTimeout(this.tickTimer);
    this.poseFileWatch.dispose();
    this.poses?.dispose();
    this.sound.dispose();
    this.rig?.dispose();
    if (this.vrm) VRMUtils.deepDispose(this.vrm.scene);
  }
}
