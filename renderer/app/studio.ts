/**
 * The studio's state and its one way of changing it: the document (document.ts: the current Motion
 * in an undo history of immutable Motions, and which file it is), the avatar and its preview, and
 * every change announced through `events` so panels, timeline and viewport redraw what they show.
 */
import { hasTakes, isAvatarFile, isMmdModelFile, isMmdMotionFile, isVideoFile } from '../../shared/formats/formats';
import { gltfKind } from '../../shared/formats/gltfKind';
import type { OpenQuestions } from './openQuestions';
import { durationOf, type Motion } from '../../shared/motion/types';
import type { HumanBoneName } from '../../shared/vrm/humanBones';
import { FALLOFF_SECONDS, type StudioApi } from '../../shared/contract/studioApi';
import { SettingsClient } from './settings';
import type { History } from './history';
import { MotionDocument, type OpenOptions } from './document';
import { CommandRegistry, shortcutText } from './commands';
import { IS_MAC } from './platformKeys';
import { Emitter } from './emitter';
import { estimateFps } from '../../shared/vrma/summary';
import type { TimeRange } from './range';
import { PreviewClock } from '../preview/previewClock';
import { Preview } from '../preview/preview';
import { disposeAvatar, loadAvatar, type LoadedAvatar } from '../avatar/loadAvatar';
import type { StudioViewport } from './studioViewport';
import { motionBounds } from '../preview/motionBounds';
import { openReadableFrames } from './partialBvh';
import { openCapturedVideo } from './capturedVideo';
import { Messages, errorDetailText, errorText, type MessageText } from '../ui/messages';
import { openTakeFile, readMotionFile } from './core';
import { openConverted, openTakes } from './openConverted';
import { writeVrmaSoon } from './motionFiles';
import { MmdModels, type MmdModel } from './mmdModels';
import { t } from '../../shared/i18n';
import { snapToFrame } from './frames';
import { DragSession } from './dragSession';

/** "Mirrored · Ctrl+Z to undo" / "⌘Z". */
function withUndoHint(text: string): string {
  return t('studio.edit.done', { text, shortcut: shortcutText('Mod+Z', IS_MAC) });
}

/** The file an MMD document was converted from, kept so a model given later converts it again. */
interface MmdSource {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly path?: string;
}

export interface StudioEvents {
  motion: Motion;
  avatar: LoadedAvatar;
  time: number;
  selection: HumanBoneName | null;
  range: TimeRange | null;
  falloff: number;
  document: null;
  playback: null;
  [key: string]: unknown;
}

/** How long spring bones (hair, skirts) keep moving after the pose stops changing: drawn that long (ms). */
const SPRING_SETTLE_MS = 1500;
/** Events after which the viewport shows something else (render on demand). */
const VISIBLE_EVENTS = ['motion', 'avatar', 'time', 'selection', 'range', 'falloff', 'playback'] as const;

export class Studio {
  readonly events = new Emitter<StudioEvents>();
  readonly clock = new PreviewClock();
  readonly commands = new CommandRegistry();
  readonly messages = new Messages();
  /** The one document model: motion, undo history, file identity, save/export/recovery. */
  readonly doc: MotionDocument;
  avatar: LoadedAvatar | null = null;
  preview: Preview | null = null;
  /** File the avatar came from, when it came from a path (desktop), for autosave and recovery. */
  avatarPath: string | undefined;
  range: TimeRange | null = null;
  selectedBone: HumanBoneName | null = null;
  falloff: number = FALLOFF_SECONDS.default;
  fps = 30;
  /** The drag in progress (gizmo, IK handle, gaze target, expression slider), if any. */
  readonly drag: DragSession = new DragSession(this);
  /**
   * Asked before the document is replaced while it has unsaved edits (opening another motion):
   * resolves true to go on (saved or discarded), false to keep the document. Without one, go on.
   */
  leaveGuard: (() => Promise<boolean>) | null = null;
  /** The take picker and the avatar-or-motion question; without them the first take / the avatar. */
  questions: OpenQuestions | null = null;
  /** MMD models given by the user (per folder) for converting .vmd/.vpd files. */
  readonly mmdModels: MmdModels;
  /** The open document's MMD source, while the document is an MMD conversion. */
  private mmdSource: MmdSource | null = null;

  /**
   * `viewport`: the picture the studio draws into, as the kernel sees it (app/studioViewport.ts; the shell
   * hands in renderer/viewport's Viewport). `settings`: the one settings client; every view reads and changes the settings through it.
   */
  constructor(readonly viewport: StudioViewport, readonly api: StudioApi | null, initialMotion: Motion, initialName = 'Untitled', readonly settings = new SettingsClient(api)) {
    this.doc = new MotionDocument(initialMotion, initialName);
    this.doc.setWriter(writeVrmaSoon);
    this.doc.showsWith((motion) => this.showable(motion));
    this.mmdModels = new MmdModels(api);
    this.doc.events.on('changed', () => this.events.emit('document', null));
    this.setDuration(initialMotion);
    viewport.onFrame((dt) => this.onFrame(dt));
    for (const name of VISIBLE_EVENTS) this.events.on(name, () => this.poseChanged());
  }

  /** performance.now() until which springs may still be moving. */
  private settleUntil = 0;

  /** The picture changed: draw it, and keep drawing while the avatar's springs settle. */
  private poseChanged(): void {
    if (this.avatar?.vrm.springBoneManager?.joints.size) this.settleUntil = performance.now() + SPRING_SETTLE_MS;
    this.viewport.requestRender();
  }

  get motion(): Motion {
    return this.doc.motion;
  }

  get history(): History<Motion> {
    return this.doc.history;
  }

  /** The document's name (walk for walk.vmd). */
  get motionName(): string {
    return this.doc.name;
  }

  /** The document's file, or the file it was opened from. */
  get sourcePath(): string | undefined {
    return this.doc.sourcePath;
  }

  get duration(): number {
    return this.clock.duration;
  }

  get dirty(): boolean {
    return this.doc.dirty;
  }

  /**
   * Records an edited Motion as one undo step and says so in one line: `confirmation` (e.g.
   * "Deleted 0.40 s + 0.20 s blend"), else "<label> · Ctrl+Z to undo".
   */
  commit(motion: Motion, label: string, confirmation?: MessageText): void {
    const text = typeof confirmation === 'function' ? confirmation : () => confirmation ?? label;
    if (!this.doc.commit(motion, label, text)) return;
    this.motionChanged();
    this.messages.show('success', () => withUndoHint(text()), { group: 'edit' });
  }

  undo(): void {
    const step = this.history.undoLabel ?? '';
    if (this.doc.undo()) {
      this.motionChanged();
      this.messages.show('success', () => t('studio.edit.undone', { step }), { group: 'edit' });
    }
  }

  redo(): void {
    const step = this.history.redoLabel ?? '';
    if (this.doc.redo()) {
      this.motionChanged();
      this.messages.show('success', () => t('studio.edit.redone', { step }), { group: 'edit' });
    }
  }

  /** Goes back (or forward) to one entry of the undo history (the history list). */
  goToHistory(index: number): void {
    if (this.doc.goTo(index)) this.motionChanged();
  }

  /** A new document: history starts over, range and time reset, the old document's notices go. */
  openDocument(motion: Motion, opts: OpenOptions): void {
    this.preview?.setMotion(motion); // a motion the preview refuses throws: the open fails, the document stays
    this.mmdSource = null;
    this.doc.open(motion, opts);
    this.messages.documentChanged();
    this.documentReplaced();
    this.frameAvatar();
  }

  /** The document was replaced in place (recovery): time, range and views follow. */
  documentReplaced(): void {
    this.range = null;
    this.clock.time = 0;
    this.motionChanged();
    this.events.emit('range', null);
  }

  /**
   * Before the document is replaced: true when it may go (no unsaved edits, or the user chose Save or
   * Don't save in the leave guard), false when the user chose Cancel.
   */
  async confirmLeave(): Promise<boolean> {
    if (!this.doc.dirty || !this.leaveGuard) return true;
    return this.leaveGuard();
  }

  private setDuration(motion: Motion): void {
    this.clock.setDuration(durationOf(motion));
    // Frame stepping needs a rate even for a one-frame pose (no estimate): step at 30.
    this.fps = estimateFps(motion) ?? 30;
    if (this.range && this.range.end > this.clock.duration) this.range = null;
  }

  private motionChanged(): void {
    const motion = this.motion;
    this.setDuration(motion);
    this.rebuildPreview();
    this.events.emit('motion', motion);
    this.events.emit('document', null);
    this.events.emit('time', this.clock.time);
    this.commands.changed();
  }

  private rebuildPreview(): void {
    if (this.preview && this.showable(this.motion)) this.preview.applyAt(this.clock.time);
  }

  /** Puts `motion` in the preview, or says why not; the document then does not take it (it had been a page error only). */
  private showable(motion: Motion): boolean {
    try {
      this.preview?.setMotion(motion);
      return true;
    } catch (e) {
      this.messages.error(() => t('studio.preview.failed', { detail: errorText(e) }));
      return false;
    }
  }

  async setAvatar(bytes: Uint8Array, name: string): Promise<void> {
    this.placeAvatar(await loadAvatar(bytes, name, [], this.viewport.renderer));
  }

  /** Puts an avatar read with this viewport's renderer (loadAvatar) in the scene, in place of the current one. */
  placeAvatar(loaded: LoadedAvatar): void {
    const old = this.avatar;
    this.preview?.dispose();
    if (old) disposeAvatar(old);
    this.avatar = loaded;
    // Its programs compile in the GPU process while the preview and the framing below are built.
    this.viewport.prepare(loaded.vrm.scene);
    this.viewport.scene.add(loaded.vrm.scene);
    this.preview = new Preview(loaded);
    this.rebuildPreview();
    loaded.vrm.scene.updateMatrixWorld(true);
    this.frameAvatar();
    this.events.emit('avatar', loaded);
    // What the views added for it (bone markers, IK handles, gaze target) is sent too: with no parallel
    // shader compile, the first frame otherwise linked their three programs one after the other (issue 30).
    this.viewport.prepare();
  }

  /** Points the camera at the avatar over the whole motion (F, and whenever a motion opens). */
  frameAvatar(): void {
    if (!this.avatar) return;
    this.viewport.frameBox(motionBounds(this.avatar, this.preview, this.duration, this.clock.time));
  }

  /** Opens any supported file; a bad file is reported and the current work stays. Returns whether it loaded. */
  async openFile(name: string, bytes: Uint8Array, path?: string): Promise<boolean> {
    try {
      if (isMmdModelFile(name)) return await this.useMmdModel({ name, bytes, path });
      if (isVideoFile(name)) return await openCapturedVideo(this, name, bytes, path);
      if (isAvatarFile(name)) {
        // A .glb of animations (Blender, KayKit, Quaternius) is a motion to convert; a VRM that also carries animations is either: the user says which.
        const kind = gltfKind(bytes);
        let asAvatar = kind === 'avatar';
        if (kind === 'avatarWithAnimations') {
          const file = await openTakeFile(name, bytes);
          const takes = file.takes.length;
          file.release();
          const use = this.questions ? await this.questions.avatarOrMotion(name, takes) : 'avatar';
          if (use === null) return false;
          asAvatar = use === 'avatar';
        }
        if (asAvatar) {
          await this.setAvatar(bytes, name);
          this.avatarPath = path; // autosave records it so a recovered session gets the same avatar
          const missing = this.avatar?.texturesMissing ?? 0;
          const problems = this.avatar?.textureProblems ?? [];
          // A texture the loader could not decode leaves the avatar untextured there: say so, and why.
          if (missing) this.messages.show('notice', () => t('avatar.texturesMissing', { file: name, count: missing, detail: problems.map((e) => errorDetailText(e)).join('; ') }));
          else this.messages.show('success', () => t('studio.avatar.loaded', { file: name }));
          return true;
        }
      }
      if (hasTakes(name)) return await openTakes(this, name, bytes, path);
      const model = isMmdMotionFile(name) ? await this.mmdModels.modelFor(path) : null;
      // Read first, ask about unsaved changes after: a file that cannot open (a .txt, a broken .vrma)
      // says so without asking to save a document it would never replace.
      const { motion, convertedFrom, measured } = await readMotionFile(name, bytes, model ? { pmx: model.bytes } : {});
      if (!(await this.confirmLeave())) return false;
      void measured?.then(() => this.commands.changed());
      openConverted(
        this,
        name,
        path,
        motion,
        convertedFrom,
        model && !motion.warnings.some((w) => w.detail === 'mmd.modelMismatch') ? () => t('convert.mmd.withModel', { file: name, format: convertedFrom ?? '', model: model.name }) : undefined,
      ); // a model that does not fit (mmd/modelFit.ts) was not used
      if (isMmdMotionFile(name)) this.mmdSource = { name, bytes, path };
      return true;
    } catch (e) {
      // A BVH cut short: the frames before the cut can still open, if the user wants them.
      const partial = await openReadableFrames(this, name, bytes, path, e);
      if (partial !== null) return partial;
      this.messages.error(() => t('studio.open.fileFailed', { file: name, detail: errorText(e) }));
      return false;
    }
  }

  /**
   * A .pmx/.pmd given by the user becomes the MMD model for the .vmd/.vpd of its folder (or, dropped
   * without a path, for MMD files in general); the open MMD document is converted again with it.
   */
  private async useMmdModel(model: MmdModel): Promise<boolean> {
    try {
      await this.mmdModels.use(model);
    } catch (e) {
      this.messages.error(() => t('convert.mmd.modelFailed', { model: model.name, detail: errorText(e) }));
      return false;
    }
    // The open MMD document is converted again with the model the user just gave.
    const src = this.mmdSource;
    if (!src) {
      this.messages.show('success', () => t(model.path ? 'convert.mmd.modelSet' : 'convert.mmd.modelLoose', { model: model.name }));
      return true;
    }
    if (!(await this.confirmLeave())) return true; // the model is kept for the next MMD file
    const { motion, convertedFrom } = await readMotionFile(src.name, src.bytes, { pmx: model.bytes });
    openConverted(this, src.name, src.path, motion, convertedFrom, () => t('convert.mmd.reconverted', { file: src.name, model: model.name }));
    this.mmdSource = src;
    return true;
  }

  seek(t: number): void {
    this.clock.seek(t);
    this.preview?.applyAt(this.clock.time);
    this.events.emit('time', this.clock.time);
  }

  /**
   * Where keys and markers made at the playhead go: the frame the playhead is on (an Alt-freed
   * playhead between frames keys the nearest frame, as Blender does).
   */
  get keyTime(): number {
    return snapToFrame(this.clock.time, this.fps, this.duration);
  }

  setPlaying(playing: boolean): void {
    if (playing && this.clock.time >= this.clock.duration && !this.clock.loop) this.clock.time = 0;
    const pausing = this.clock.playing && !playing;
    this.clock.playing = playing && this.clock.duration > 0;
    // Playback stops on a frame, as it does in Blender and MMD: what is keyed next is where it shows.
    if (pausing) this.seek(this.keyTime);
    this.events.emit('playback', null);
    this.commands.changed();
  }

  setRange(range: TimeRange | null): void {
    this.range = range;
    this.events.emit('range', range);
    this.commands.changed();
  }

  select(bone: HumanBoneName | null): void {
    if (bone === this.selectedBone) return;
    this.selectedBone = bone;
    this.events.emit('selection', bone);
    this.commands.changed();
  }

  setFalloff(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    this.falloff = seconds;
    this.events.emit('falloff', seconds);
  }

  /** Per drawn frame: advance playback and pose the avatar; answers whether more frames are needed. */
  private onFrame(dt: number): boolean {
    if (this.clock.advance(dt)) this.events.emit('time', this.clock.time);
    this.preview?.applyAt(this.clock.time, dt, this.drag.active);
    return this.clock.playing || this.drag.active || performance.now() < this.settleUntil;
  }
}
