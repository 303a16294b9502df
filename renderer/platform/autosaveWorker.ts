/**
 * Module worker that keeps autosave and Save off the page's main thread: it holds the motion's tracks
 * (sent once, then only what each edit changed), writes the .vrma (writeVrmaParts) and, for the
 * browser host, also wraps and uploads it (the page's own fetch of a 34 MB body held the page for
 * about half a second). Without an upload target (Electron: the preload bridge exists only in the
 * page) the bytes go back transferred, not copied; a file larger than a piece stays here and the page
 * takes it piece by piece for the IPC. Save sends its file in pieces, so a cancel between two leaves
 * the old file untouched (filePieces.ts).
 */
import { joinParts, writeVrmaParts, type VrmaParts } from '../../shared/vrma/writeParts';
import { WireByteParts } from '../../shared/contract/wire';
import { PIECE_BYTES } from '../../shared/contract/pieces';
import { sliceOfParts } from '../../shared/bytes';
import type { Channel } from '../../shared/motion/types';
import { unsplice, type AutosaveProgress, type AutosaveReply, type AutosaveRequest, type MotionDelta } from './autosaveProtocol';
import { BufferStore } from './autosaveBuffers';
import { postWireCall, type WireCallTarget } from './wireCall';
import { abortError, sendInPieces } from './filePieces';

interface WorkerScope {
  onmessage: ((e: MessageEvent<AutosaveRequest>) => void) | null;
  postMessage(message: AutosaveReply | AutosaveProgress, transfer?: Transferable[]): void;
}

const scope = self as unknown as WorkerScope;
let target: WireCallTarget | null = null;
/** The channels of the last save, which the next one refers to by index. */
let last: readonly Channel[] = [];
/** Buffers sent in slices that the held channels are views of. */
const store = new BufferStore();
/** Files written for the page to take in pieces (Electron), by the call that wrote them. */
const kept = new Map<number, VrmaParts>();
/** Saves on their way, by call: their cancel. */
const running = new Map<number, AbortController>();

/** The motion a delta stands for, from the channels held; it becomes what the next delta refers to. */
function motionOf(delta: MotionDelta) {
  const channels = delta.channels.map((c) => (typeof c === 'number' ? last[c] : 'splice' in c ? unsplice(c, last[c.splice]) : store.channel(c)));
  store.keepOnly(delta.buffers);
  last = channels;
  const { buffers: _buffers, ...rest } = delta;
  return { ...rest, channels };
}

/** The written file handed to the page: whole and transferred when small, else kept for its pieces. */
function handBack(id: number, written: VrmaParts): void {
  if (written.byteLength <= PIECE_BYTES) {
    const bytes = joinParts(written);
    scope.postMessage({ id, ok: true, bytes, size: bytes.length }, [bytes.buffer]);
    return;
  }
  kept.set(id, written);
  scope.postMessage({ id, ok: true, size: written.byteLength });
}

async function saveFile(id: number, written: VrmaParts, path: string, t: WireCallTarget): Promise<unknown> {
  const control = new AbortController();
  running.set(id, control);
  try {
    const ref = await sendInPieces((piece) => postWireCall<void>(t, 'putPiece', [piece], control.signal), written.byteLength, (from, to) => sliceOfParts(written.parts, from, to), {
      signal: control.signal,
      onProgress: (done) => scope.postMessage({ progress: id, done }),
    });
    if (control.signal.aborted) throw abortError();
    return await postWireCall(t, 'saveFile', [{ path, bytes: ref }]);
  } finally {
    running.delete(id);
  }
}

scope.onmessage = async (e) => {
  const req = e.data;
  if (req.type === 'init') {
    target = req.target;
    return;
  }
  if (req.type === 'chunk') {
    store.chunk(req.buffer, req.total, req.offset, req.bytes);
    scope.postMessage({ id: req.id, ok: true, held: store.bytes });
    return;
  }
  if (req.type === 'keep') {
    store.keepOnly(req.buffers);
    last = [];
    scope.postMessage({ id: req.id, ok: true, held: store.bytes });
    return;
  }
  try {
    if (req.type === 'piece') {
      const file = kept.get(req.of);
      if (!file) throw new Error(`autosave: no file kept for call ${req.of}`);
      const bytes = sliceOfParts(file.parts, req.from, req.to);
      scope.postMessage({ id: req.id, ok: true, bytes }, [bytes.buffer]);
      return;
    }
    if (req.type === 'release' || req.type === 'cancel') {
      kept.delete(req.of);
      running.get(req.of)?.abort();
      scope.postMessage({ id: req.id, ok: true });
      return;
    }
    const motion = motionOf(req.motion);
    const written = writeVrmaParts(motion);
    if (req.type === 'saveFile') {
      if (target) scope.postMessage({ id: req.id, ok: true, value: await saveFile(req.id, written, req.path, target) });
      else handBack(req.id, written);
      return;
    }
    if (target) {
      // The file's parts are mostly views of the channels this worker holds: uploaded without joining.
      await postWireCall(target, 'autosave', [{ ...req.session, motion: new WireByteParts(written.parts, written.byteLength) }]);
      scope.postMessage({ id: req.id, ok: true });
    } else handBack(req.id, written);
  } catch (err) {
    const error = err as Error & { code?: string };
    scope.postMessage({
      id: req.id,
      ok: false,
      error: { name: error?.name ?? 'Error', message: error?.message ?? String(err), ...(typeof error?.code === 'string' ? { code: error.code } : {}) },
    });
  }
};
