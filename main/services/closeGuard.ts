/**
 * Closing the window with unsaved changes (issue 11): main does not decide alone. It asks the page
 * (event `closeRequest`), which shows the studio's own Save / Don't save / Cancel dialog and answers
 * with `answerClose`: first 'shown' (the dialog is up; the user may take as long as they like), then
 * 'close' (saved, or Don't save) or 'cancel'. A page that does not even say 'shown' within
 * `ackTimeoutMs` is taken as hung, and main's own native dialog decides (`fallback`).
 *
 * Electron-free (plain timers and callbacks) so the decision is unit-tested without a window.
 */
export type CloseAnswer = 'shown' | 'close' | 'cancel';
export type CloseDecision = 'close' | 'cancel';

export interface CloseRequest {
  /** Names this request; an answer with another id (an old, late one) is ignored. */
  readonly id: number;
}

export interface CloseGuardOptions {
  /** Deliver the request to the page (the `closeRequest` event). */
  ask(req: CloseRequest): void;
  /** Main's own dialog, used when the page does not answer in time. */
  fallback(): Promise<CloseDecision>;
  /** How long the page has to show its dialog (ms). */
  ackTimeoutMs?: number;
}

export const CLOSE_ACK_TIMEOUT_MS = 3000;

interface Pending {
  readonly id: number;
  readonly done: Promise<CloseDecision>;
  settle(d: CloseDecision): void;
  timer: ReturnType<typeof setTimeout> | null;
}

export class CloseGuard {
  private nextId = 1;
  private pending: Pending | null = null;

  constructor(private readonly opts: CloseGuardOptions) {}

  /**
   * The window is about to close. Clean document: 'close' at once. Dirty: asks the page (one request
   * at a time: a second close while one is asked waits for the same decision).
   */
  request(dirty: boolean): Promise<CloseDecision> {
    if (!dirty) return Promise.resolve('close');
    if (this.pending) return this.pending.done;
    const id = this.nextId++;
    let settle!: (d: CloseDecision) => void;
    const done = new Promise<CloseDecision>((ok) => (settle = ok));
    const p: Pending = {
      id,
      done,
      timer: null,
      settle: (d) => {
        if (this.pending !== p) return;
        if (p.timer) clearTimeout(p.timer);
        this.pending = null;
        settle(d);
      },
    };
    this.pending = p;
    p.timer = setTimeout(() => {
      p.timer = null;
      if (this.pending !== p) return;
      // Hung page: main's own dialog decides (an answer from the page after this is ignored).
      this.pending = null;
      this.opts.fallback().then(settle, () => settle('cancel'));
    }, this.opts.ackTimeoutMs ?? CLOSE_ACK_TIMEOUT_MS);
    try {
      this.opts.ask({ id });
    } catch {
      /* no page to ask: the timer falls back */
    }
    return done;
  }

  /** The page's answer; false when it names no request being asked. */
  answer(id: number, answer: CloseAnswer): boolean {
    const p = this.pending;
    if (!p || p.id !== id) return false;
    if (answer === 'shown') {
      if (p.timer) clearTimeout(p.timer);
      p.timer = null;
      return true;
    }
    p.settle(answer);
    return true;
  }

  /** True while a request waits for the page. */
  get asking(): boolean {
    return this.pending !== null;
  }
}
