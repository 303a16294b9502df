/**
 * Writes autosaves without holding the page: the motion goes to a module worker (structured clone,
 * a plain memory copy of its typed arrays), which writes the .vrma and, for the browser host, uploads
 * it itself; in Electron the written bytes come back transferred and go through the preload bridge.
 * If the worker cannot be created or fails to load, autosave carries on in the page as before.
 */
import { StudioApiError, type StudioApi, type StudioErrorCode } from '../../shared/contract/studioApi';
import type { Channel, Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import type { AutosaveReply, AutosaveRequest, MotionDelta, SessionWithoutMotion, SplicedDelta } from './autosaveProtocol';
import { spliceOf } from '../../shared/motion/channelDiff';
import { kindsOf } from '../../shared/motion/interpolation';
import { componentsOf } from '../../shared/motion/types';
import { httpCallTarget } from './httpStudioApi';
import { WorkerFailedError, WorkerRpc } from '../workers/workerRpc';
import { BufferShipper } from './autosaveBuffers';

export interface AutosaveWriter {
  /** Where the .vrma is written: 'worker', or 'page' when no worker could be used. */
  readonly mode: 'worker' | 'page';
  /** Writes the motion and hands the whole session to the StudioApi's autosave. */
  save(session: SessionWithoutMotion, motion: Motion): Promise<void>;
  dispose(): void;
}

export function createAutosaveWriter(api: StudioApi, opts: { useWorker?: boolean } = {}): AutosaveWriter {
  const inPage = async (session: SessionWithoutMotion, motion: Motion) => api.autosave({ ...session, motion: writeVrma(motion) });
  /** Index of each channel the worker holds from the last save (it keeps them for the next one). */
  let held = new Map<Channel, number>();
  const buffers = new BufferShipper();
  const disposed = new Error('autosave writer disposed');
  // The script failed to load (or the worker died): what it had is written in the page, and so is the rest.
  const worker =
    opts.useWorker === false
      ? null
      : new WorkerRpc<AutosaveRequest & { id: number }, AutosaveReply>(() => new Worker(new URL('./autosaveWorker.ts', import.meta.url), { type: 'module', name: 'autosave' }), {
          init: { type: 'init', target: httpCallTarget(api) } satisfies AutosaveRequest,
          onFail: (why) => {
            console.warn('autosave: the worker failed, writing in the page from now on:', why);
            held = new Map();
            buffers.reset();
          },
        });

  /** A channel by index where the worker holds it, by its changed keys where it was made from a held one. */
  function deltaOf(c: Channel): Channel | number | SplicedDelta {
    const index = held.get(c);
    if (index !== undefined) return index;
    const s = spliceOf(c);
    const base = s && held.get(s.from);
    if (!s || base === undefined || s.tail === undefined || kindsOf(c) || kindsOf(s.from)) return c;
    const size = componentsOf(c.path);
    const end = c.times.length - (s.from.times.length - s.tail);
    return { splice: base, head: s.head, tail: s.tail, times: c.times.slice(s.head, end), values: c.values.slice(s.head * size, end * size) };
  }

  function delta(motion: Motion): MotionDelta {
    const copies = new Map<Float32Array, Float32Array>();
    const channels = motion.channels.map((c) => {
      const d = deltaOf(c);
      return typeof d === 'number' || 'splice' in d ? d : buffers.sent(d, copies);
    });
    return { ...motion, channels, buffers: buffers.inUse(motion) };
  }

  /** The large buffers the motion's new tracks are views of, sent ahead in slices (autosaveBuffers.ts). */
  async function shipBuffers(w: NonNullable<typeof worker>, motion: Motion): Promise<void> {
    for (const b of buffers.wanted(motion.channels.filter((c) => !held.has(c) && !spliceOf(c)))) {
      await buffers.ship(b, (chunk) => w.call((id) => ({ type: 'chunk', id, ...chunk }), { transfer: (r) => (r.type === 'chunk' ? [r.bytes] : []) }));
    }
  }

  /** The worker's answer: uploaded by it, or written and handed back for the page to send. */
  function settled(reply: AutosaveReply, session: SessionWithoutMotion): Promise<void> | void {
    if (!reply.ok) {
      const { name, message, code } = reply.error;
      throw code ? new StudioApiError(code as StudioErrorCode, message) : Object.assign(new Error(message), { name });
    }
    if (reply.bytes) return api.autosave({ ...session, motion: reply.bytes });
  }

  return {
    get mode() {
      return worker && worker.state === 'worker' ? 'worker' : 'page';
    },
    async save(session, motion) {
      if (!worker || worker.state === 'none') return inPage(session, motion);
      const fallBack = (e: unknown) => {
        if (e === disposed) throw e;
        // The worker is gone (WorkerFailedError), or something in the motion cannot be cloned
        // (DataCloneError): write this one in the page.
        if (!(e instanceof WorkerFailedError)) console.warn('autosave: could not hand the motion to the worker:', e);
        return inPage(session, motion);
      };
      try {
        await shipBuffers(worker, motion);
      } catch (e) {
        return fallBack(e);
      }
      const sent = () => (held = new Map(motion.channels.map((c, i) => [c, i])));
      return worker.call((id) => ({ type: 'save', id, motion: delta(motion), session }), { sent }).then((reply) => settled(reply, session), fallBack);
    },
    dispose() {
      worker?.dispose(disposed);
    },
  };
}
