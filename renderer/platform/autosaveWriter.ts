/**
 * Writes autosaves without holding the page: the motion goes to a module worker (structured clone,
 * a plain memory copy of its typed arrays), which writes the .vrma and, for the browser host, uploads
 * it itself; in Electron the written bytes come back transferred and go through the preload bridge.
 * If the worker cannot be created or fails to load, autosave carries on in the page as before.
 */
import { StudioApiError, type StudioApi, type StudioErrorCode } from '../../shared/contract/studioApi';
import type { Channel, Motion } from '../../shared/motion/types';
import { writeVrma } from '../../shared/vrma/write';
import type { AutosaveReply, AutosaveRequest, MotionDelta, SessionWithoutMotion } from './autosaveProtocol';
import { httpCallTarget } from './httpStudioApi';
import { RpcCalls, WorkerFailedError } from '../../shared/rpc/rpcCalls';

export interface AutosaveWriter {
  /** Where the .vrma is written: 'worker', or 'page' when no worker could be used. */
  readonly mode: 'worker' | 'page';
  /** Writes the motion and hands the whole session to the StudioApi's autosave. */
  save(session: SessionWithoutMotion, motion: Motion): Promise<void>;
  dispose(): void;
}

export function createAutosaveWriter(api: StudioApi, opts: { useWorker?: boolean } = {}): AutosaveWriter {
  const inPage = async (session: SessionWithoutMotion, motion: Motion) => api.autosave({ ...session, motion: writeVrma(motion) });
  const calls = new RpcCalls<AutosaveReply>();
  /** Index of each channel the worker holds from the last save (it keeps them for the next one). */
  let held = new Map<Channel, number>();
  // Started by the first save, not with the studio: its script (75 kB) would be fetched and compiled
  // while the page draws its first frame. undefined: not started yet; null: writing in the page.
  let worker: Worker | null | undefined = opts.useWorker === false ? null : undefined;
  const started = (): Worker | null => (worker === undefined ? (worker = startWorker()) : worker);

  function delta(motion: Motion): MotionDelta {
    return { ...motion, channels: motion.channels.map((c) => held.get(c) ?? c) };
  }

  function startWorker(): Worker | null {
    if (typeof Worker === 'undefined') return null;
    let w: Worker;
    try {
      w = new Worker(new URL('./autosaveWorker.ts', import.meta.url), { type: 'module', name: 'autosave' });
    } catch (e) {
      console.warn('autosave: no worker, writing in the page:', e);
      return null;
    }
    w.onmessage = (e: MessageEvent<AutosaveReply>) => void calls.settle(e.data);
    // The script failed to load (or the worker died): finish what it had in the page, and stay there.
    w.onerror = (e) => {
      e.preventDefault();
      console.warn('autosave: the worker failed, writing in the page from now on:', e.message);
      fallBack();
    };
    w.onmessageerror = () => fallBack();
    w.postMessage({ type: 'init', target: httpCallTarget(api) } satisfies AutosaveRequest);
    return w;
  }

  /** The worker's answer: uploaded by it, or written and handed back for the page to send. */
  function settled(reply: AutosaveReply, session: SessionWithoutMotion): Promise<void> | void {
    if (!reply.ok) {
      const { name, message, code } = reply.error;
      throw code ? new StudioApiError(code as StudioErrorCode, message) : Object.assign(new Error(message), { name });
    }
    if (reply.bytes) return api.autosave({ ...session, motion: reply.bytes });
  }

  function fallBack() {
    worker?.terminate();
    worker = null;
    held = new Map();
    // The calls still waiting are written in the page (save() sees the WorkerFailedError).
    calls.close(new WorkerFailedError());
  }

  return {
    get mode() {
      if (worker === undefined) return typeof Worker === 'undefined' ? 'page' : 'worker';
      return worker ? 'worker' : 'page';
    },
    save(session, motion) {
      const w = started();
      if (!w) return inPage(session, motion);
      let notSent: unknown;
      const send = (id: number) => {
        try {
          w.postMessage({ type: 'save', id, motion: delta(motion), session } satisfies AutosaveRequest);
          held = new Map(motion.channels.map((c, i) => [c, i]));
        } catch (e) {
          notSent = e;
          throw e;
        }
      };
      return calls.call(send).then(
        (reply) => settled(reply, session),
        (e) => {
          if (e !== notSent && !(e instanceof WorkerFailedError)) throw e;
          // Something in the motion cannot be cloned (DataCloneError), or the worker is gone: write this one in the page.
          if (e === notSent) console.warn('autosave: could not hand the motion to the worker:', e);
          return inPage(session, motion);
        },
      );
    },
    dispose() {
      worker?.terminate();
      worker = null;
      calls.close(new Error('autosave writer disposed'));
    },
  };
}
