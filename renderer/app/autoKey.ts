/**
 * Auto-key, as Blender's record button. On (the default): a pose edit (a gizmo or IK drag, the gaze
 * target, a typed gaze, an expression weight) is keyed at the playhead as one undo step. Off: the edit
 * is a preview on the avatar only, kept while the playhead stays on its frame and dropped when the
 * frame changes (or the document changes under it), unless K keys it; the document, its bytes and its
 * history stay as they were. The first unkeyed pose after auto-key goes off says so once.
 *
 * Successive pose edits while off build on the previewed motion, so K keys all of them in one step.
 * The choice is kept in Settings (autoKey) through the one settings client.
 */
import type { Motion } from '../../shared/motion/types';
import { t } from '../../shared/i18n';
import type { Studio } from './studio';
import { frameOf } from './frames';

/** A pose edit shown but not keyed: the motion it would have made, and where it was made. */
interface PendingPose {
  readonly motion: Motion;
  /** The document's motion it was made on (a change of document drops it). */
  readonly base: Motion;
  readonly frame: number;
  readonly label: string;
  readonly message: () => string;
}

export class AutoKey {
  private pending: PendingPose | null = null;
  /** The "not keyed" notice was shown since auto-key last went off. */
  private told = false;

  constructor(private readonly studio: Studio) {
    studio.events.on('time', () => {
      if (this.pending && frameOf(studio.keyTime, studio.fps) !== this.pending.frame) this.drop();
    });
    studio.events.on('motion', (m) => {
      if (this.pending && m !== this.pending.base) this.drop();
    });
    studio.events.on('avatar', () => (this.pending = null)); // a new preview shows the document's motion
    studio.settings.onChange((s, patch) => {
      if (patch?.autoKey === false || (!patch && !s.autoKey)) this.told = false;
      studio.commands.changed();
    });
  }

  get enabled(): boolean {
    return this.studio.settings.value.autoKey;
  }

  /** Turns auto-key on or off (kept in the settings; a pose previewed now stays until its frame is left). */
  set(on: boolean): void {
    void this.studio.settings.set({ autoKey: on }).catch(() => undefined);
  }

  /** The motion a pose edit builds on: the previewed one while a pose is unkeyed, else the document's. */
  get motion(): Motion {
    return this.pending?.motion ?? this.studio.motion;
  }

  /** Whether a pose is shown that is not keyed. */
  get hasPending(): boolean {
    return this.pending !== null;
  }

  /**
   * A pose edit made `motion` (from `this.motion`): keyed now with auto-key on, else shown on the avatar
   * until the frame changes. The caller re-poses the avatar afterwards (studio.seek at the same time).
   */
  poseEdit(motion: Motion, label: string, message: () => string): void {
    if (this.enabled) {
      this.pending = null;
      this.studio.commit(motion, label, message);
      return;
    }
    const studio = this.studio;
    // A motion the preview refuses throws before the pose is taken as pending (the drag says why).
    studio.preview?.setMotion(motion);
    this.pending = { motion, base: studio.motion, frame: frameOf(studio.keyTime, studio.fps), label, message };
    studio.preview?.applyAt(studio.clock.time);
    studio.viewport.requestRender();
    if (!this.told) {
      this.told = true;
      studio.messages.show('notice', () => t('autoKey.notKeyed'));
    }
  }

  /** K while a pose is unkeyed: keys it as auto-key would have, one undo step. False when none is. */
  keyPending(): boolean {
    const p = this.pending;
    if (!p) return false;
    this.pending = null;
    this.studio.commit(p.motion, p.label, p.message);
    return true;
  }

  /** The unkeyed pose goes: the avatar shows the document's motion again. */
  private drop(): void {
    this.pending = null;
    const studio = this.studio;
    studio.preview?.setMotion(studio.motion);
    studio.preview?.applyAt(studio.clock.time);
    studio.viewport.requestRender();
  }
}
