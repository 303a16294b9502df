/**
 * The autosave writer and its worker as they run in Electron (no upload target: the page sends the
 * worker's file on through the StudioApi), the worker module run in this thread behind a Worker
 * stand-in whose messages are structured clones (transfers honoured). On real data, a 5-minute
 * 60 fps motion read from its 17 MB file (every track a view of the file):
 *  - the autosave reaches main as writeVrma's bytes, sent in pieces no larger than PIECE_BYTES;
 *  - Save in place after a one-track edit sends the worker that track only, not the motion, and the
 *    saved bytes are writeVrma's of the edited motion;
 *  - a Save cancelled between pieces calls no saveFile and leaves no upload behind in main;
 *  - two edits made one after the other with no autosave between (a key move, then a reverse of a
 *    range, as while the last autosave is still writing) send only the keys between the chain's
 *    kept ends, and the file is writeVrma's of the motion after both;
 *  - a motion primed when opened has its file buffer sent ahead, twice asked or not: its first edit's
 *    autosave then sends that edit's track only.
 *  - a second large file opened without an edit: the worker lets go of the first file's buffer before
 *    the second's goes over (it held both until the next autosave), and back at the saved state of the
 *    same document it keeps what it holds;
 *  - Save clicked while the first autosave is still sending the motion, with an edit right after it
 *    (the open-large e2e's order): the file is the motion of the click, byte for byte, and the
 *    autosave after the edit is the edited motion (with the sends interleaved, the worker was named a
 *    buffer it had been told to drop: "autosave: buffer 1 was not sent").
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import { PIECE_BYTES, type Piece } from '../../../shared/contract/pieces';
import type { AutosaveSession, SaveRequest, StudioApi } from '../../../shared/contract/studioApi';
import type { Channel, Motion } from '../../../shared/motion/types';
import { PieceStore } from '../../../main/services/pieceStore';
import type { AutosaveWriter } from '../../../renderer/platform/autosaveWriter';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { reverse } from '../../../shared/edits/reverse';
import { editPartBlended } from '../../../shared/edits/rangeEdit';

/** Bytes a structured clone of `v` copies: each distinct ArrayBuffer once, whole. */
function clonedBytes(v: unknown, seen = new Set<ArrayBufferLike>()): number {
  if (ArrayBuffer.isView(v)) return seen.has(v.buffer) ? 0 : (seen.add(v.buffer), v.buffer.byteLength);
  if (v instanceof ArrayBuffer) return seen.has(v) ? 0 : (seen.add(v), v.byteLength);
  if (v && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + clonedBytes(x, seen), 0);
  return 0;
}
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** What the page posted to the worker, by request type, with the bytes each clone copied. */
const posted: { type: string; bytes: number }[] = [];

class StandInWorker {
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  onmessageerror: ((e: MessageEvent) => void) | null = null;
  constructor() {
    scope.toPage = (m, transfer) => setTimeout(() => this.onmessage?.({ data: structuredClone(m, { transfer }) } as MessageEvent));
  }
  postMessage(m: { type: string }, transfer: Transferable[] = []): void {
    posted.push({ type: m.type, bytes: clonedBytes(m) });
    const data = structuredClone(m, { transfer });
    setTimeout(() => scope.onmessage?.({ data } as MessageEvent));
  }
  terminate(): void {}
}
/** What the worker answered (its 'chunk' and 'keep' replies say the bytes of buffers it holds). */
const replies: { held?: number }[] = [];
const scope = {
  onmessage: null as ((e: MessageEvent) => void) | null,
  toPage: (_m: unknown, _t: Transferable[]) => {},
  postMessage(m: unknown, transfer: Transferable[] = []) {
    replies.push(m as { held?: number });
    this.toPage(m, transfer);
  },
};

/** Main's side: pieces assembled by the store, calls resolved as main/electron/ipcCall.ts does. */
const pieces = new PieceStore();
const pieceSizes: number[] = [];
const autosaved: Uint8Array[] = [];
const saved: Uint8Array[] = [];
const api = {
  putPiece: async (p: Piece) => {
    pieceSizes.push(p.bytes.length);
    pieces.put(structuredClone(p));
  },
  autosave: async (s: AutosaveSession) => void autosaved.push((pieces.resolve([structuredClone(s)])[0] as AutosaveSession).motion),
  saveFile: async (req: SaveRequest) => {
    const r = pieces.resolve([structuredClone(req)])[0] as SaveRequest;
    saved.push(r.bytes);
    return { path: r.path, size: r.bytes.length };
  },
} as unknown as StudioApi;

const session = { avatar: { kind: 'builtin', id: 'mannequin' }, motionName: 'long', undoIndex: 1, view: {} } as const;

describe('autosave and Save in Electron: the worker holds the motion, the page sends its file in pieces', () => {
  const file = writeVrma(makeLongMotion(300, 60));
  const motion = readVrma(file);
  let writer: AutosaveWriter;

  beforeAll(async () => {
    vi.stubGlobal('self', scope);
    vi.stubGlobal('Worker', StandInWorker);
    await import('../../../renderer/platform/autosaveWorker');
    const { createAutosaveWriter } = await import('../../../renderer/platform/autosaveWriter');
    writer = createAutosaveWriter(api);
  });
  afterAll(() => {
    writer?.dispose();
    vi.unstubAllGlobals();
  });

  it("the autosave reaches main as writeVrma's bytes, in pieces of at most PIECE_BYTES", async () => {
    await writer.save(session, motion);
    expect(writer.mode).toBe('worker');
    expect(autosaved).toHaveLength(1);
    expect(same(autosaved[0], file)).toBe(true);
    expect(pieceSizes.length).toBe(Math.ceil(file.length / PIECE_BYTES));
    expect(Math.max(...pieceSizes)).toBe(PIECE_BYTES);
    // The file buffer went over once, in slices; the save message itself copied no track.
    expect(posted.filter((p) => p.type === 'chunk').reduce((n, p) => n + p.bytes, 0)).toBe(file.length);
    expect(posted.find((p) => p.type === 'save')!.bytes).toBe(0);
  });

  it('Save after a one-track edit sends the worker that track only; the file saved is the edited motion', async () => {
    const c = motion.channels[7];
    const values = c.values.slice();
    for (let i = 0; i < values.length; i += 4) values[i] = -values[i];
    const edited: Motion = { ...motion, channels: motion.channels.map((x): Channel => (x === c ? { ...c, values } : x)) };
    const progress: number[] = [];
    posted.length = 0;
    const result = await writer.saveFile('/m/long.vrma', edited, { onProgress: (d) => progress.push(d) });
    const expected = writeVrma(edited);
    expect(result).toEqual({ path: '/m/long.vrma', size: expected.length });
    expect(same(saved[0], expected)).toBe(true);
    const sent = posted.find((p) => p.type === 'saveFile')!;
    expect(sent.bytes).toBe(values.byteLength);
    expect(posted.filter((p) => p.type === 'chunk')).toEqual([]);
    expect(progress.at(-1)).toBe(1);
    expect(pieces.size).toBe(0);
  });

  it('a Save cancelled between pieces calls no saveFile and leaves no upload in main', async () => {
    const stop = new AbortController();
    const before = saved.length;
    const c = motion.channels[9];
    const edited: Motion = { ...motion, channels: motion.channels.map((x): Channel => (x === c ? { ...c, values: c.values.map((v) => v * 0.5) } : x)) };
    await expect(writer.saveFile('/m/long.vrma', edited, { signal: stop.signal, onProgress: () => stop.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(saved.length).toBe(before);
    expect(pieces.size).toBe(0);
  });

  it('edits chained with no autosave between send their changed keys only, through the splice chain', async () => {
    await writer.save(session, motion);
    const rot = motion.channels.filter((c) => c.path === 'rotation').slice(0, 12);
    const at = 60 * 60; // key index at 60 s
    const moved = moveKeys(motion, rot.map((c) => ({ node: c.node, path: c.path, keys: Array.from({ length: 120 }, (_, i) => at + i) })), 10 / 60);
    const both = editPartBlended(moved, { from: 100, to: 105 }, reverse);
    // Every changed track of `both` was made from `moved`'s, which the worker was never sent.
    const changed = both.channels.filter((c, i) => c !== motion.channels[i]);
    expect(changed.length).toBeGreaterThan(rot.length);
    posted.length = 0;
    await writer.save(session, both);
    expect(same(autosaved.at(-1)!, writeVrma(both))).toBe(true);
    // Keys between 59.9 s and 105.1 s at most, per changed track: 46 s of 300, with a margin of 1.2×.
    const track = (c: Channel) => c.times.byteLength + c.values.byteLength;
    const whole = changed.reduce((n, c) => n + track(c), 0);
    const bytes = posted.find((p) => p.type === 'save')!.bytes;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(whole * (46 / 300) * 1.2);
    expect(posted.filter((p) => p.type === 'chunk')).toEqual([]);
  });

  it('an undo (back to the tracks the held ones were spliced from) sends the changed keys only, and the file is the motion before the edit', async () => {
    const before = moveKeys(motion, motion.channels.filter((c) => c.path === 'rotation').slice(0, 3).map((c) => ({ node: c.node, path: c.path, keys: [600] })), 1 / 60);
    await writer.save(session, before);
    const after = editPartBlended(before, { from: 100, to: 105 }, reverse);
    await writer.save(session, after);
    const changed = before.channels.filter((c, i) => c !== after.channels[i]);
    expect(changed.length).toBeGreaterThan(10);
    posted.length = 0;
    await writer.save(session, before); // the undo
    expect(same(autosaved.at(-1)!, writeVrma(before))).toBe(true);
    // The reversed 5 s of 300 per changed track (measured 360 kB of 21.5 MB), bound 6 s × 1.2; before, 936 kB and the whole buffers again.
    const whole = changed.reduce((n, c) => n + c.times.byteLength + c.values.byteLength, 0);
    const bytes = posted.find((p) => p.type === 'save')!.bytes;
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThan(whole * (6 / 300) * 1.2);
    expect(posted.filter((p) => p.type === 'chunk')).toEqual([]);
  });

  it("primed on open, a file's buffer goes over once, ahead; the first edit then sends its track only", async () => {
    const file2 = writeVrma(makeLongMotion(320, 60)); // over CHUNK_BYTES: sent in slices
    const opened = readVrma(file2);
    posted.length = 0;
    // Asked twice at once (an autosave and a Save may both want it): sent once.
    await Promise.all([writer.prime(opened), writer.prime(opened)]);
    // Another document: the worker is first told to drop the one it held (no bytes), then sent the buffer only.
    expect(posted[0]).toEqual({ type: 'keep', bytes: 0 });
    expect(posted.slice(1).every((p) => p.type === 'chunk')).toBe(true);
    expect(posted.reduce((n, p) => n + p.bytes, 0)).toBe(opened.channels[0].times.buffer.byteLength);
    expect(opened.channels[0].times.buffer.byteLength).toBeGreaterThanOrEqual(file2.length - 4096);
    const c = opened.channels[7];
    const edited: Motion = { ...opened, channels: opened.channels.map((x): Channel => (x === c ? { ...c, values: c.values.map((v) => -v) } : x)) };
    posted.length = 0;
    await writer.save(session, edited);
    expect(same(autosaved.at(-1)!, writeVrma(edited))).toBe(true);
    expect(posted.filter((p) => p.type === 'chunk')).toEqual([]);
    expect(posted.find((p) => p.type === 'save')!.bytes).toBe(c.values.byteLength);
  });

  it('Save during the first autosave, an edit right after: the file is the motion of the click, the next autosave the edit', async () => {
    // A fresh writer and worker (modules loaded again): nothing held yet, so the first autosave sends the whole file in slices.
    vi.resetModules();
    await import('../../../renderer/platform/autosaveWorker');
    const { createAutosaveWriter } = await import('../../../renderer/platform/autosaveWriter');
    const fresh = createAutosaveWriter(api);
    const edit = (m: Motion, i: number, by: number): Motion => ({ ...m, channels: m.channels.map((x, k): Channel => (k === i ? { ...x, values: x.values.map((v) => v * by) } : x)) });
    const clicked = edit(motion, 3, 0.25); // the first edit: what Save is clicked on
    const later = edit(clicked, 11, -1); // the edit made while it saves
    const savedBefore = saved.length, autosavedBefore = autosaved.length;
    try {
      // As desktopSession runs them: the edit's autosave starts, Save is clicked, the next edit's autosave
      // waits for the one before (latestRunner) and then goes while the Save is still on its way.
      const first = fresh.save(session, clicked);
      const save = fresh.saveFile('/m/long.vrma', clicked);
      const second = first.then(() => fresh.save(session, later));
      await Promise.all([first, save, second]);
      expect(saved.length).toBe(savedBefore + 1);
      expect(same(saved[savedBefore], writeVrma(clicked))).toBe(true);
      expect(autosaved.length).toBe(autosavedBefore + 2);
      expect(same(autosaved[autosavedBefore], writeVrma(clicked))).toBe(true);
      expect(same(autosaved[autosavedBefore + 1], writeVrma(later))).toBe(true);
      expect(pieces.size).toBe(0);
    } finally {
      fresh.dispose();
    }
  });
  it('a second large file opened without an edit: the worker drops the first file’s buffer before the second’s goes over', async () => {
    vi.resetModules();
    await import('../../../renderer/platform/autosaveWorker');
    const { createAutosaveWriter } = await import('../../../renderer/platform/autosaveWriter');
    const fresh = createAutosaveWriter(api);
    // Two files over CHUNK_BYTES (each a view of its own file buffer), told apart by length.
    const a = readVrma(writeVrma(makeLongMotion(320, 60)));
    const b = readVrma(writeVrma(makeLongMotion(330, 60)));
    const bytesOf = (m: Motion) => m.channels[0].times.buffer.byteLength;
    const heldSince = (from: number) => replies.slice(from).flatMap((r) => (r.held === undefined ? [] : [r.held]));
    try {
      let from = replies.length;
      await fresh.prime(a);
      expect(heldSince(from).at(-1)).toBe(bytesOf(a));
      // Opened b, nothing edited: the worker holds b's buffer only, and never held both (without the drop: a + b).
      from = replies.length;
      await fresh.prime(b);
      expect(heldSince(from).at(-1)).toBe(bytesOf(b));
      expect(Math.max(...heldSince(from))).toBe(bytesOf(b));
      // b's first edit still sends its track only, and the file is the edited b.
      const c = b.channels[5];
      const edited: Motion = { ...b, channels: b.channels.map((x): Channel => (x === c ? { ...c, values: c.values.map((v) => -v) } : x)) };
      posted.length = 0;
      await fresh.save(session, edited);
      expect(same(autosaved.at(-1)!, writeVrma(edited))).toBe(true);
      expect(posted.filter((p) => p.type === 'chunk' || p.type === 'keep')).toEqual([]);
      expect(posted.find((p) => p.type === 'save')!.bytes).toBe(c.values.byteLength);
      // Back at b's saved state (an undo): the same document, so nothing is dropped and nothing sent again.
      posted.length = 0;
      await fresh.prime(b);
      expect(posted).toEqual([]);
      // a opened again after b was edited: b's held tracks and buffer go, a's buffer is sent again.
      from = replies.length;
      await fresh.prime(a);
      expect(heldSince(from)[0]).toBe(0);
      expect(heldSince(from).at(-1)).toBe(bytesOf(a));
      const d = a.channels[2];
      const editedA: Motion = { ...a, channels: a.channels.map((x): Channel => (x === d ? { ...d, values: d.values.map((v) => v * 0.5) } : x)) };
      await fresh.save(session, editedA);
      expect(same(autosaved.at(-1)!, writeVrma(editedA))).toBe(true);
    } finally {
      fresh.dispose();
    }
  });
});
