/**
 * One drag session for every drag that edits the motion live (a gizmo ring, an IK handle, the gaze
 * target, an expression slider): while it lasts playback is paused and the mixer leaves the avatar
 * to the hand that holds it; on release the edit it made is one undo step (a failure is one notice,
 * in the user's language), and the avatar shows the motion's pose again.
 */
import type { Motion } from '../../shared/motion/types';
import { errorText, type MessageText } from '../ui/messages';

/** What the session needs of the studio (Studio itself; narrow so the kernel has no cycle). */
export interface DragStudio {
  /** The document's motion (what an edit builds on when nothing keys through auto-key). */
  readonly motion: Motion;
  readonly clock: { readonly time: number };
  readonly preview: { invalidate(): void } | null;
  readonly messages: { error(text: MessageText): void };
  setPlaying(playing: boolean): void;
  commit(motion: Motion, label: string, confirmation?: MessageText): void;
  seek(t: number): void;
}

/** The edit a released drag makes on `base`: `apply` may throw (a solver that cannot reach, a bad key). */
export interface DragEdit {
  apply(base: Motion): Motion;
  /** The undo step's name. */
  readonly label: string;
  /** The confirmation shown after the commit. */
  readonly done: () => string;
  /** The notice when `apply` or the commit failed (`detail` is the error's words). */
  readonly failed: (detail: string) => string;
}

/**
 * Who keys a released drag's edit (app/autoKey.ts): the motion edits build on (the previewed one while
 * a pose is shown unkeyed) and the keying itself (at once, or shown until the frame changes).
 */
export interface DragKeyer {
  readonly motion: Motion;
  poseEdit(motion: Motion, label: string, message: () => string): void;
}

export class DragSession {
  private held = false;
  private keyer: DragKeyer | null = null;

  constructor(private readonly studio: DragStudio) {}

  /** Released drags are keyed through `keyer` (auto-key) instead of committed directly. */
  keyWith(keyer: DragKeyer): void {
    this.keyer = keyer;
  }

  /** The motion a drag's edit builds on. */
  get base(): Motion {
    return this.keyer?.motion ?? this.studio.motion;
  }

  /** A drag is in progress: the mixer must not overwrite the nodes the user holds. */
  get active(): boolean {
    return this.held;
  }

  begin(): void {
    this.held = true;
    this.studio.setPlaying(false);
  }

  /**
   * Ends the drag. `edit` null: nothing to record (a cancelled pointer, a drag back to the start, no
   * avatar). Otherwise the edit is computed on the pose shown during the drag, before the preview is
   * let go, and committed as one step.
   */
  end(edit: DragEdit | null): void {
    let next: Motion | null = null;
    let failure: unknown = null;
    if (edit) {
      try {
        next = edit.apply(this.base);
      } catch (e) {
        failure = e;
      }
    }
    this.held = false;
    // The mixer only writes values that changed since its last write: restart its bindings.
    this.studio.preview?.invalidate();
    if (next && edit) {
      try {
        if (this.keyer) this.keyer.poseEdit(next, edit.label, edit.done);
        else this.studio.commit(next, edit.label, edit.done);
      } catch (e) {
        failure = e;
      }
    }
    if (edit && failure !== null) this.studio.messages.error(() => edit.failed(errorText(failure)));
    // The dragged nodes show the mixer's pose again (the edited one, or the old one after a failure).
    this.studio.seek(this.studio.clock.time);
  }
}
