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

export interface AutosaveWriter {
  /** Where the .vrma is written: 'worker', or 'page' when no worker could be used. */
  readonly mode: 'worker' | 'page';
  /** Writes the motion and hands the whole session to the StudioApi's autosave. */
  save(session: SessionWithoutMotion, motion: Motion): Promise<void>;
  dispose(): void;
}

interface Pending {
  readonly session: SessionWithoutMotion;
  readonly motion: Motion;
  readonly resolve: () => void;
  readonly reject: (e: unknown) => void;
}

export function createAutosaveWriter(api: StudioApi, opts: { useWorker?: boolean } = {}): AutosaveWriter {
  const inPage = async (session: SessionWithoutMotion, motion: Motion) => api.autosave({ ...session, motion: writeVrma(motion) });
  const pending = new Map<number, Pending>();
  let nextId = 1;
  /** Index of each channel the worker holds from the last save (it keeps them for the next one). */
  let held = new Map<Channel, number>();
  let worker = opts.useWorker === false ? null : startWorker();

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
    w.onmessage = (e: MessageEvent<AutosaveReply>) => settle(e.data);
    // The script failed to load (or the worker died): finish what it had in the page, and stay there.
    w.onerror = (e) => {
      e.preventDefault();
      console.warn('autosave: the worker failed, writing in the page from now on:', e.message);
      fallBack();
    };
    w.onmessageerror = () => fallBack();
    post(w, { type: 'init', target: httpCallTarget(api) });
    return w;
  }

  function post(w: Worker, req: AutosaveRequest) {
    w.postMessage(req);
  }

  function settle(reply: AutosaveReply) {
    const p = pending.get(reply.id);
    if (!p) return;
    pending.delete(reply.id);
    if (!reply.ok) {
      const { name, message, code } = reply.error;
      const error = code ? new StudioApiError(code as StudioErrorCode, message) : Object.assign(new Error(message), { name });
      p.reject(error);
    } else if (reply.bytes) {
      api.autosave({ ...p.session, motion: reply.bytes }).then(p.resolve, p.reject);
    } else {
      p.resolve();
    }
  }

  function fallBack() {
    worker?.terminate();
    worker = null;
    held = new Map();
    const left = [...pending.values()];
    pending.clear();
    for (const p of left) inPage(p.session, p.motion).then(p.resolve, p.reject);
  }

  return {
    get mode() {
      return worker ? 'worker' : 'page';
    },
    save(session, motion) {
      const w = worker;
      if (!w) return inPage(session, motion);
      return new Promise<void>((resolve, reject) => {
        const id = nextId++;
        pending.set(id, { session, motion, resolve, reject });
        try {
          post(w, { type: 'save', id, motion: delta(motion), session });
          held = new Map(motion.channels.map((c, i) => [c, i]));
        } catch (e) {
          // Something in the motion cannot be cloned (DataCloneError): write this one in the page.
          pending.delete(id);
          console.warn('autosave: could not hand the motion to the worker:', e);
          inPage(session, motion).then(resolve, reject);
        }
      });
    },
    dispose() {
      worker?.terminate();
      worker = null;
      for (const p of pending.values()) p.reject(new Error('autosave writer disposed'));
      pending.clear();
    },
  };
}
