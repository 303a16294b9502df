/**
 * Module worker that keeps autosave off the page's main thread: it writes the .vrma (writeVrma) and,
 * for the browser host, also wraps and uploads it (the page's own fetch of a 34 MB body held the page
 * for about half a second). Without an upload target (Electron: the preload bridge exists only in
 * the page) the bytes go back transferred, not copied.
 */
import { joinParts, writeVrmaParts } from '../../shared/vrma/writeParts';
import { WireByteParts } from '../../shared/contract/wire';
import type { Channel } from '../../shared/motion/types';
import { unsplice, type AutosaveReply, type AutosaveRequest } from './autosaveProtocol';
import { BufferStore } from './autosaveBuffers';
import { postWireCall, type WireCallTarget } from './wireCall';

interface WorkerScope {
  onmessage: ((e: MessageEvent<AutosaveRequest>) => void) | null;
  postMessage(message: AutosaveReply, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
let target: WireCallTarget | null = null;
/** The channels of the last save, which the next one refers to by index. */
let last: readonly Channel[] = [];
/** Buffers sent in slices that the held channels are views of. */
const store = new BufferStore();

scope.onmessage = async (e) => {
  const req = e.data;
  if (req.type === 'init') {
    target = req.target;
    return;
  }
  if (req.type === 'chunk') {
    store.chunk(req.buffer, req.total, req.offset, req.bytes);
    scope.postMessage({ id: req.id, ok: true });
    return;
  }
  try {
    const channels = req.motion.channels.map((c) => (typeof c === 'number' ? last[c] : 'splice' in c ? unsplice(c, last[c.splice]) : store.channel(c)));
    store.keepOnly(req.motion.buffers);
    last = channels;
    const written = writeVrmaParts({ ...req.motion, channels });
    if (target) {
      // The file's parts are mostly views of the channels this worker holds: uploaded without joining.
      await postWireCall(target, 'autosave', [{ ...req.session, motion: new WireByteParts(written.parts, written.byteLength) }]);
      scope.postMessage({ id: req.id, ok: true });
    } else {
      const bytes = joinParts(written);
      scope.postMessage({ id: req.id, ok: true, bytes }, [bytes.buffer]);
    }
  } catch (err) {
    const error = err as Error & { code?: string };
    scope.postMessage({
      id: req.id,
      ok: false,
      error: { name: error?.name ?? 'Error', message: error?.message ?? String(err), ...(typeof error?.code === 'string' ? { code: error.code } : {}) },
    });
  }
};
