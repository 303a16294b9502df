/**
 * Writes autosaves, and Save in place, without holding the page: the motion goes to a module worker
 * once (its large buffers in slices, autosaveBuffers.ts) and after that only what each edit changed;
 * the worker writes the .vrma from the tracks it holds and, for the browser host, uploads it itself.
 * In Electron the written bytes come back transferred (a file over a piece: piece by piece, each
 * sent on through the preload, so no IPC message carries the whole file). Save sends its file in
 * pieces in both hosts, with progress, and stops between two when cancelled (filePieces.ts).
 * If the worker cannot be created or fails to load, autosave carries on in the page as before.
 */
import { StudioApiError, type SaveResult, type StudioApi, type StudioErrorCode } from '../../shared/contract/studioApi';
import type { Channel, Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import type { AutosaveProgress, AutosaveReply, AutosaveRequest, MotionDelta, SessionWithoutMotion, SplicedDelta } from './autosaveProtocol';
import { spliceOf } from '../../shared/motion/channelDiff';
import { kindsOf } from '../../shared/motion/interpolation';
import { componentsOf } from '../../shared/motion/types';
import { httpCallTarget } from './httpStudioApi';
import { WorkerFailedError, WorkerRpc } from '../workers/workerRpc';
import { BufferShipper } from './autosaveBuffers';
import { takeTwin } from '../app/motionFiles';
import { abortError, isAbort, refAsBytes, sendInPieces, type PieceSendOptions } from './filePieces';

export interface AutosaveWriter {
  /** Where the .vrma is written: 'worker', or 'page' when no worker could be used. */
  readonly mode: 'worker' | 'page';
  /** Writes the motion and hands the whole session to the StudioApi's autosave. */
  save(session: SessionWithoutMotion, motion: Motion): Promise<void>;
  /**
   * Save in place from what the worker holds: the file at `path` replaced atomically, or left as it
   * was when `signal` stopped it (AbortError). Null when no worker runs (the caller writes in the page).
   */
  saveFile(path: string, motion: Motion, opts?: PieceSendOptions): Promise<SaveResult | null>;
  /**
   * Sends the worker a just-opened motion's large buffers ahead of its first edit, each slice in its
   * own task: the first pose edit of an hour otherwise sent 413 MB first (0.6 s of main thread, the
   * O(length) part of the gizmo drag's end). Nothing when no worker runs.
   */
  prime(motion: Motion): Promise<void>;
  dispose(): void;
}

/** Saves in place the worker made (the test hook reports it, so a test can tell where Save went). */
export const fileSaverCounts = { saves: 0 };

type Rpc = WorkerRpc<AutosaveRequest & { id: number }, AutosaveReply>;

/** Edits a channel may be made through before its splice chain reaches a held one (each step O(1)). */
const MAX_CHAIN = 64;

/**
 * How `c` is made from a channel the worker holds, through a chain of splices (channelDiff.ts
 * spliceOf): edits made while an autosave was on its way (writing an hour takes seconds) are each
 * spliced from the one before, which the worker never got; without the chain every such track went
 * whole (a reverse after a key move cloned 61 tracks of an hour, 2 s of main thread). Each step keeps
 * the first `head` keys and the last `kept` keys of the one before, so the chain keeps the smallest of
 * each: `c`'s first `head` keys are the held one's, and its last `kept` keys the held one's last `kept`.
 */
export function heldSplice(c: Channel, held: ReadonlyMap<Channel, number>): { base: number; head: number; tail: number; kept: number } | undefined {
  let head = Infinity, kept = Infinity;
  for (let at = c, step = 0; step < MAX_CHAIN; step++) {
    const s = spliceOf(at);
    if (!s || s.tail === undefined || kindsOf(at) || kindsOf(s.from)) return undefined;
    head = Math.min(head, s.head);
    kept = Math.min(kept, s.from.times.length - s.tail);
    const base = held.get(s.from);
    if (base !== undefined) return { base, head, tail: s.from.times.length - kept, kept };
    at = s.from;
  }
  return undefined;
}

/**
 * How `c` is made from a held channel that was spliced from it: an undo (or a step back) returns the
 * tracks the held ones were made from, which the worker dropped when it took the edit's. `c` is the held
 * one with its middle put back: the same first `head` keys and the same last keys after its own `tail`.
 * Without it an undo at the hour cloned every edited track whole (556 ms of main thread, the length
 * bench's undo row).
 */
export function heldUnsplice(c: Channel, r: Channel, base: number): { base: number; head: number; tail: number; kept: number } | undefined {
  const s = spliceOf(r);
  if (!s || s.from !== c || s.tail === undefined || kindsOf(c) || kindsOf(r)) return undefined;
  const kept = c.times.length - s.tail;
  return { base, head: s.head, tail: r.times.length - kept, kept };
}

/**
 * What the worker holds of the motion, seen from the page: the channels of the last message (by
 * index), the large buffers it was sent in slices. Each message sends only what it does not hold.
 */
class WorkerCopy {
  /** Index of each channel the worker holds from the last save (it keeps them for the next one). */
  private held = new Map<Channel, number>();
  private readonly buffers = new BufferShipper(takeTwin);

  reset(): void {
    this.held = new Map();
    this.unsplicedOf = undefined;
    this.buffers.reset();
  }

  /** Held channels by the channel each was spliced from (built once per held motion, for heldUnsplice). */
  private unsplicedOf?: Map<Channel, Channel>;

  private unspliced(c: Channel) {
    if (!this.unsplicedOf) {
      this.unsplicedOf = new Map();
      for (const r of this.held.keys()) {
        const from = spliceOf(r)?.from;
        if (from) this.unsplicedOf.set(from, r);
      }
    }
    const r = this.unsplicedOf.get(c);
    return r === undefined ? undefined : heldUnsplice(c, r, this.held.get(r)!);
  }

  /** A channel by index where the worker holds it, by its changed keys where it was made from a held one. */
  private deltaOf(c: Channel): Channel | number | SplicedDelta {
    const index = this.held.get(c);
    if (index !== undefined) return index;
    const s = heldSplice(c, this.held) ?? this.unspliced(c);
    if (!s) return c;
    const size = componentsOf(c.path);
    const end = c.times.length - s.kept;
    return { splice: s.base, head: s.head, tail: s.tail, times: c.times.slice(s.head, end), values: c.values.slice(s.head * size, end * size) };
  }

  private delta(motion: Motion): MotionDelta {
    const copies = new Map<Float32Array, Float32Array>();
    const channels = motion.channels.map((c) => {
      const d = this.deltaOf(c);
      return typeof d === 'number' || 'splice' in d ? d : this.buffers.sent(d, copies);
    });
    return { ...motion, channels, buffers: this.buffers.inUse(motion) };
  }

  /** The large buffers under `channels` the worker has not got yet, sent in slices (each its own message, moved). */
  private async ship(w: Rpc, channels: readonly Channel[]): Promise<void> {
    for (const b of this.buffers.wanted(channels)) {
      await this.buffers.ship(b, (chunk) => w.call((id) => ({ type: 'chunk', id, ...chunk }), { transfer: (r) => (r.type === 'chunk' ? [r.bytes] : []) }));
    }
  }

  /** The send before the last one asked for has gone out (its reply may still be on its way). */
  private turn: Promise<unknown> = Promise.resolve();

  /**
   * Whether the worker holds another document than `motion`: held channels none of which is one of
   * its channels or spliced from one, or (nothing held) a sent buffer none of its arrays is a view of.
   * Back at the saved state the document's held channels stay, so a redo sends only its splices.
   */
  private holdsAnother(motion: Motion): boolean {
    if (!this.held.size) return this.buffers.unusedBy(motion);
    const mine = new Set(motion.channels);
    for (const r of this.held.keys()) {
      const from = spliceOf(r)?.from;
      if (mine.has(r) || (from && mine.has(from))) return false;
    }
    return true;
  }

  /**
   * The motion's large buffers sent ahead, while nothing is to be saved yet (the worker holds no track
   * of it). In the same queue as the sends, so a Save or autosave asked meanwhile never interleaves with it.
   * Another document opened: what the worker held of the one before goes first, so a second large
   * file opened without an edit no longer leaves the first one's buffer in the worker (both files' worth
   * of memory until the next autosave).
   */
  prime(w: Rpc, motion: Motion): Promise<void> {
    const shipped = this.turn.then(async () => {
      if (this.holdsAnother(motion)) {
        this.held = new Map();
        this.unsplicedOf = undefined;
        const buffers = this.buffers.inUse(motion);
        await w.call((id) => ({ type: 'keep', id, buffers }));
      }
      await this.ship(w, motion.channels);
    });
    this.turn = shipped.catch(() => undefined);
    return shipped;
  }

  /**
   * The motion as the worker is sent it (its new large buffers first, in slices); the worker then holds
   * this one. Sends go out one at a time, in the order asked: each delta names what the worker holds
   * once the send before it went out. Interleaved (an autosave still shipping the file's buffer when
   * Save is clicked, the next edit's autosave right after), a send named buffers and channels the
   * worker was told to drop or had not got yet ("autosave: buffer 1 was not sent" in
   * autosaveWriterElectron.test.ts; the likely cause of the open-large e2e's Save that never reached
   * the disk, not caught there in two loaded runs). The motion is the caller's, taken when it asked: Save writes
   * the document of its click whatever is edited while it waits here.
   */
  send(w: Rpc, motion: Motion, build: (id: number, motion: MotionDelta) => AutosaveRequest & { id: number }): Promise<AutosaveReply> {
    const posted = this.turn.then(async () => {
      await this.ship(w, motion.channels.filter((c) => !this.held.has(c) && !spliceOf(c) && !this.unspliced(c)));
      const sent = () => {
        this.held = new Map(motion.channels.map((c, i) => [c, i]));
        this.unsplicedOf = undefined;
      };
      // Wrapped: the next send waits for this one to be posted, not for its reply (an upload).
      return { reply: w.call((id) => build(id, this.delta(motion)), { sent }) };
    });
    this.turn = posted.catch(() => undefined);
    return posted.then((p) => p.reply);
  }
}

export function createAutosaveWriter(api: StudioApi, opts: { useWorker?: boolean } = {}): AutosaveWriter {
  const inPage = async (session: SessionWithoutMotion, motion: Motion) => api.autosave({ ...session, motion: writeVrma(motion) });
  const copy = new WorkerCopy();
  const disposed = new Error('autosave writer disposed');
  /** Progress of the Saves on their way, by call id (the worker posts it between pieces). */
  const progress = new Map<number, (done: number) => void>();
  // The script failed to load (or the worker died): what it had is written in the page, and so is the rest.
  const worker: Rpc | null = opts.useWorker === false
    ? null
    : new WorkerRpc<AutosaveRequest & { id: number }, AutosaveReply>(() => new Worker(new URL('./autosaveWorker.ts', import.meta.url), { type: 'module', name: 'autosave' }), {
      init: { type: 'init', target: httpCallTarget(api) } satisfies AutosaveRequest,
      onFail: (why) => {
        console.warn('autosave: the worker failed, writing in the page from now on:', why);
        copy.reset();
      },
      onMessage: (data) => {
        const p = data as Partial<AutosaveProgress>;
        if (typeof p.progress !== 'number') return false;
        progress.get(p.progress)?.(p.done ?? 0);
        return true;
      },
    });

  function failed(reply: AutosaveReply): asserts reply is AutosaveReply & { ok: true } {
    if (reply.ok) return;
    const { name, message, code } = reply.error;
    throw code ? new StudioApiError(code as StudioErrorCode, message) : Object.assign(new Error(message), { name });
  }

  /**
   * The bytes of a file the worker wrote and handed back: as they came (small), or, for a file it kept,
   * sent on piece by piece (the StudioApi's putPiece) and named by a PieceRef; the worker then lets it go.
   */
  async function handedBack(w: Rpc, call: number, reply: AutosaveReply & { ok: true }, send: PieceSendOptions = {}): Promise<Uint8Array> {
    if (reply.bytes) return reply.bytes;
    const size = reply.size ?? 0;
    const take = async (from: number, to: number) => {
      const r = await w.call((id) => ({ type: 'piece', id, of: call, from, to }));
      failed(r);
      return r.bytes ?? new Uint8Array(0);
    };
    try {
      return api.putPiece ? refAsBytes(await sendInPieces(api.putPiece.bind(api), size, take, send)) : await take(0, size);
    } finally {
      void w.call((id) => ({ type: 'release', id, of: call })).catch(() => undefined);
    }
  }

  return {
    get mode() {
      return worker && worker.state === 'worker' ? 'worker' : 'page';
    },
    async save(session, motion) {
      if (!worker || worker.state === 'none') return inPage(session, motion);
      let call = 0;
      let reply: AutosaveReply;
      try {
        reply = await copy.send(worker, motion, (id, m) => ({ type: 'save', id: call = id, motion: m, session }));
      } catch (e) {
        if (e === disposed) throw e;
        // The worker is gone (WorkerFailedError), or something in the motion cannot be cloned
        // (DataCloneError): write this one in the page.
        if (!(e instanceof WorkerFailedError)) console.warn('autosave: could not hand the motion to the worker:', e);
        return inPage(session, motion);
      }
      failed(reply);
      if (reply.bytes || reply.size !== undefined) await api.autosave({ ...session, motion: await handedBack(worker, call, reply) });
    },
    async saveFile(path, motion, o = {}) {
      if (!worker || worker.state === 'none') return null;
      let call = 0;
      const onCancel = () => void worker.call((id) => ({ type: 'cancel', id, of: call })).catch(() => undefined);
      o.signal?.addEventListener('abort', onCancel, { once: true });
      try {
        let reply: AutosaveReply;
        try {
          reply = await copy.send(worker, motion, (id, m) => {
            // Cancelled while the buffers went over: the Save is not even started.
            if (o.signal?.aborted) throw abortError();
            call = id;
            if (o.onProgress) progress.set(id, o.onProgress);
            return { type: 'saveFile', id, motion: m, path };
          });
        } catch (e) {
          if (e === disposed || isAbort(e) || !(e instanceof WorkerFailedError || (e as Error)?.name === 'DataCloneError')) throw e;
          return null;
        }
        failed(reply);
        fileSaverCounts.saves++;
        if (reply.value !== undefined) return reply.value as SaveResult;
        // Electron: the worker kept the file; the page sends it on in pieces, then names it.
        const bytes = await handedBack(worker, call, reply, o);
        if (o.signal?.aborted) throw abortError();
        return await api.saveFile({ path, bytes });
      } catch (e) {
        // Stopped midway (the worker let go of the file, a piece was refused): it is the cancel that shows.
        throw o.signal?.aborted ? abortError() : e;
      } finally {
        progress.delete(call);
        o.signal?.removeEventListener('abort', onCancel);
      }
    },
    async prime(motion) {
      if (!worker || worker.state === 'none') return;
      await copy.prime(worker, motion);
    },
    dispose() {
      worker?.dispose(disposed);
    },
  };
}
