/**
 * Long edits off the main thread: an edit the registry marks `long` (over half a second on the
 * 10-minute motion) runs in the edit worker (editWorker.ts) once the motion has LONG_EDIT_KEYS keys,
 * so the page keeps drawing, shows its progress, and can cancel it. Cancel terminates the worker: the
 * edit stops where it is and nothing comes back, so the document is as it was. One job at a time.
 * Where no worker can run the edit runs in the page, as short motions always do.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import type { EditDefinition, EditInput, ParamValues } from '../../shared/edits/registry';
import type { EditFigure } from '../../shared/edits/editReport';
import { keyCount } from '../../shared/edits/editReport';
import { Emitter } from './emitter';
import { JobRpc } from '../workers/jobs';
import { receiveReply, sendMotion } from './editWire';
import type { EditReply, EditRequest } from './editProtocol';
import type { TimeRange } from './range';

/**
 * From this many keys a long edit goes to the worker. Below it every long edit takes under ~0.2 s
 * (fit, the slowest a key, measured 2 s CPU on the 10-minute motion's 2.2 M keys).
 */
export const LONG_EDIT_KEYS = 200_000;

export interface LongEditJob {
  /** The edit's label, in the current language when the job started. */
  readonly label: string;
  /** Fraction done, 0..1. */
  readonly done: number;
}

export interface LongEditResult {
  readonly motion: Motion;
  readonly figures: readonly EditFigure[];
  readonly params: ParamValues;
  /** Present when the edit moved time: IN/OUT where it put them. */
  readonly range?: TimeRange | null;
}

export class LongEdits {
  readonly events = new Emitter<{ job: LongEditJob | null }>();
  private current: LongEditJob | null = null;
  /** The channels the worker holds (from the last request), by their index there. */
  private held = new Map<Channel, number>();
  private readonly rpc = new JobRpc<EditRequest, EditReply>(() => new Worker(new URL('./editWorker.ts', import.meta.url), { type: 'module', name: 'edits' }), 'edits');

  constructor() {
    this.rpc.onReset = () => {
      this.held = new Map();
    };
  }

  /** The job under way, or null. */
  get job(): LongEditJob | null {
    return this.current;
  }

  /** Edits done by the worker (the test hook reports it). */
  get workerReplies(): number {
    return this.rpc.replies;
  }

  /** Whether this edit on this motion goes to the worker. */
  offThread(def: EditDefinition, motion: Motion): boolean {
    return def.long === true && keyCount(motion) >= LONG_EDIT_KEYS && this.rpc.available;
  }

  private set(job: LongEditJob | null): void {
    this.current = job;
    this.events.emit('job', job);
  }

  /**
   * Runs the edit in the worker. Rejects with the edit's own error (a MotionError), CancelledError
   * after cancel(), or WorkerFailedError (the caller then runs it in the page).
   */
  async run(def: EditDefinition, label: string, input: EditInput, given: Readonly<Record<string, number | boolean>>, studioRange: TimeRange | null): Promise<LongEditResult> {
    if (this.current) throw new Error('an edit is already running');
    this.set({ label, done: 0 });
    try {
      const request: EditRequest = {
        edit: def.id,
        motion: sendMotion(input.motion, this.held),
        given,
        studioRange,
        ...(input.range ? { range: input.range } : {}),
        ...(input.time !== undefined ? { time: input.time } : {}),
        ...(input.avatar ? { avatar: input.avatar } : {}),
        ...(input.other ? { other: input.other } : {}),
      };
      const reply = this.rpc.call(request, { progress: (done) => this.current && this.set({ label, done }) });
      // Sent (a call that cannot be sent has rejected already): the worker now holds these channels.
      this.held = new Map(input.motion.channels.map((c, i) => [c, i]));
      const r = await reply;
      return { motion: receiveReply(input.motion, r.motion), figures: r.figures, params: r.params, ...('range' in r ? { range: r.range } : {}) };
    } catch (e) {
      // What the worker holds is not certain after an error: send every channel next time.
      this.held = new Map();
      throw e;
    } finally {
      this.set(null);
    }
  }

  /** Stops the job under way; its run() rejects with CancelledError and the document stays as it was. */
  cancel(): void {
    if (this.current) this.rpc.cancel();
  }

  dispose(): void {
    this.rpc.dispose();
  }
}

const byStudio = new WeakMap<object, LongEdits>();

/** The studio's long-edit runner (one worker and one job per studio), made on first use. */
export function longEditsOf(studio: object): LongEdits {
  let jobs = byStudio.get(studio);
  if (!jobs) byStudio.set(studio, jobs = new LongEdits());
  return jobs;
}
