/**
 * Large files in pieces (shared/contract/pieces.ts): the page (or the autosave worker) sends a .vrma
 * PIECE_BYTES at a time with putPiece (a few on their way at once) and names it in the call with a PieceRef; main assembles it
 * (main/services/pieceStore.ts) and puts it back before validating the call. On real data (a 5-minute,
 * 60 fps motion: a 17 MB file, two pieces): through main's IPC handlers and the preload's bridge
 * (Electron mocked, the IPC a structured clone), and through the browser host over loopback HTTP,
 * where a cancelled Save leaves the file on disk as it was.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, mkdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeLongMotion } from '../../../testkit/longMotion';
import { writeVrmaParts } from '../../../shared/vrma/writeParts';
import { writeVrma } from '../../../shared/vrma/write';
import { sliceOfParts } from '../../../shared/bytes';
import { PIECE_BYTES, pieceRef, type Piece } from '../../../shared/contract/pieces';
import type { IpcResult, StudioApi } from '../../../shared/contract/studioApi';
import { PieceStore, PIECE_UPLOAD_IDLE_MS } from '../../../main/services/pieceStore';
import { answerPiece, answerStudioCall } from '../../../main/electron/ipcCall';
import { refAsBytes, sendInPieces } from '../../../renderer/platform/filePieces';
import { StudioBackend } from '../../../main/services/backend';
import { startHostServer, type HostServer } from '../../../main/host/server';
import { createHttpStudioApi } from '../../../renderer/platform/httpStudioApi';

const motion = makeLongMotion(300, 60);
const written = writeVrmaParts(motion);
const file = writeVrma(motion);
const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
const slice = (from: number, to: number) => sliceOfParts(written.parts, from, to);
/** Bytes of the byte arrays a message carries (what its clone copies). */
const bytesIn = (v: unknown): number => v instanceof Uint8Array ? v.length : v && typeof v === 'object' ? Object.values(v).reduce((n: number, x) => n + bytesIn(x), 0) : 0;

describe('a file as parts, cut into pieces', () => {
  it("the pieces of the parts, one after the other, are writeVrma's bytes", () => {
    expect(written.byteLength).toBe(file.length);
    expect(file.length).toBeGreaterThan(PIECE_BYTES);
    const pieces: Uint8Array[] = [];
    for (let at = 0; at < file.length; at += PIECE_BYTES) pieces.push(slice(at, Math.min(file.length, at + PIECE_BYTES)));
    expect(pieces.length).toBe(Math.ceil(file.length / PIECE_BYTES));
    expect(same(Buffer.concat(pieces), file)).toBe(true);
    // A range inside one part, across parts, and an empty one.
    expect(same(slice(100, 200), file.subarray(100, 200))).toBe(true);
    const head = written.parts[0].length;
    expect(same(slice(head - 3, head + 5), file.subarray(head - 3, head + 5))).toBe(true);
    expect(slice(7, 7).length).toBe(0);
  });
});

describe('main: pieces over IPC, then the call that names them', () => {
  it('assembles the file, hands it to the call in place of the ref, and no message carries more than a piece', async () => {
    const store = new PieceStore();
    let largest = 0;
    const put = async (p: Piece) => {
      largest = Math.max(largest, p.bytes.length);
      const r = answerPiece(true, structuredClone(p), store);
      if (!r.ok) throw new Error(r.error.message);
    };
    const ref = await sendInPieces(put, file.length, slice);
    let got: Uint8Array | null = null;
    const r = await answerStudioCall('saveFile', true, [structuredClone({ path: '/m/long.vrma', bytes: refAsBytes(ref) })], async ([req]) => {
      got = req.bytes;
      return { path: req.path, size: req.bytes.length };
    }, store);
    expect(r).toEqual({ ok: true, value: { path: '/m/long.vrma', size: file.length } });
    expect(same(got!, file)).toBe(true);
    expect(largest).toBe(PIECE_BYTES);
    // Handed out once: the same ref again is refused, by name.
    const again = await answerStudioCall('saveFile', true, [{ path: '/m/long.vrma', bytes: refAsBytes(ref) }], async () => 'ran', store);
    expect(again).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT', message: expect.stringMatching(/unknown/) } });
    expect(store.size).toBe(0);
  });

  it('pieces in any order assemble the same file; off the grid, the wrong size, twice, another total or sender: refused', async () => {
    const store = new PieceStore();
    const offsets: number[] = [];
    for (let at = 0; at < file.length; at += PIECE_BYTES) offsets.push(at);
    for (const at of offsets.reverse()) store.put({ upload: 1, offset: at, total: file.length, bytes: slice(at, Math.min(file.length, at + PIECE_BYTES)) });
    let got: Uint8Array | null = null;
    await answerStudioCall('saveFile', true, [{ path: '/m/a.vrma', bytes: pieceRef(1) }], async ([req]) => void (got = req.bytes), store);
    expect(same(got!, file)).toBe(true);

    const piece = (upload: number, offset: number, total: number, n: number) => ({ upload, offset, total, bytes: new Uint8Array(n) });
    const bad = (r: IpcResult<null>) => (r.ok ? 'ok' : `${r.error.code}: ${r.error.message}`);
    const two = PIECE_BYTES + 10;
    expect(answerPiece(true, piece(2, PIECE_BYTES, two, 10), store)).toEqual({ ok: true, value: null });
    expect(bad(answerPiece(true, piece(2, PIECE_BYTES, two, 10), store))).toMatch(/BAD_ARGUMENT: .*came twice/);
    expect(bad(answerPiece(true, piece(2, 4, two, 10), store))).toMatch(/BAD_ARGUMENT: .*starts at a multiple of 16777216 below 16777226, not at 4/);
    expect(bad(answerPiece(true, piece(2, 0, two, 10), store))).toMatch(/BAD_ARGUMENT: .*has 10 bytes, not 16777216/);
    expect(bad(answerPiece(true, piece(2, 0, 10, 10), store))).toMatch(/BAD_ARGUMENT: .*it is 16777226 bytes, not 10/);
    expect(bad(answerPiece(true, { upload: 3, offset: 0, total: 2 ** 31, bytes: new Uint8Array(1) }, store))).toMatch(/BAD_ARGUMENT: putPiece argument 1/);
    expect(bad(answerPiece(true, { upload: 3, offset: 0, total: 4, bytes: 'AAAA' }, store))).toMatch(/BAD_ARGUMENT: putPiece argument 1/);
    expect(bad(answerPiece(false, piece(4, 0, 10, 10), store))).toMatch(/^DENIED/);
    expect(store.size).toBe(1);
  });

  it('an incomplete upload is refused by the call; a forgotten, idle or pushed-out one is gone', async () => {
    let now = 0;
    const store = new PieceStore(2, () => now);
    store.put({ upload: 5, offset: 0, total: PIECE_BYTES + 8, bytes: new Uint8Array(PIECE_BYTES) });
    const r = await answerStudioCall('saveFile', true, [{ path: '/m/a.vrma', bytes: pieceRef(5) }], async () => 'ran', store);
    expect(r).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENT', message: expect.stringMatching(/has 16777216 of its 16777224 bytes/) } });
    store.put({ upload: 5, offset: 0, total: 0, bytes: new Uint8Array(0) }); // what a cancel sends
    expect(store.size).toBe(0);
    store.put({ upload: 6, offset: 0, total: 8, bytes: new Uint8Array(8) });
    now += PIECE_UPLOAD_IDLE_MS + 1;
    store.put({ upload: 7, offset: 0, total: 8, bytes: new Uint8Array(8) });
    expect(store.size).toBe(1);
    // At most two at a time: a third new upload pushes out the oldest.
    store.put({ upload: 8, offset: 0, total: 8, bytes: new Uint8Array(8) });
    store.put({ upload: 9, offset: 0, total: 8, bytes: new Uint8Array(8) });
    expect(store.size).toBe(2);
    expect(() => store.resolve([{ motion: pieceRef(7) }])).toThrow(/upload 7 is unknown/);
    expect((store.resolve([{ motion: pieceRef(9) }])[0] as { motion: Uint8Array }).motion).toEqual(new Uint8Array(8));
  });

  it('a send stopped between pieces forgets what it sent, and the call is never made', async () => {
    const store = new PieceStore();
    const stop = new AbortController();
    const put = async (p: Piece) => void store.put(structuredClone(p));
    const sending = sendInPieces(put, file.length, slice, { signal: stop.signal, onProgress: () => stop.abort() });
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
    expect(store.size).toBe(0);
  });
});

describe('the preload bridge (Electron mocked)', () => {
  it('putPiece and the autosave that names the pieces reach main as the file', async () => {
    const store = new PieceStore();
    const autosaved: Uint8Array[] = [];
    const messages: number[] = [];
    let exposed: StudioApi | null = null;
    vi.resetModules();
    vi.doMock('electron', () => ({
      contextBridge: { exposeInMainWorld: (_name: string, api: StudioApi) => (exposed = api) },
      webUtils: { getPathForFile: () => '' },
      ipcRenderer: {
        on: () => undefined,
        removeListener: () => undefined,
        send: () => undefined,
        // The IPC: a structured clone of the arguments, handled as main's ipc.ts does.
        invoke: async (channel: string, ...raw: unknown[]) => {
          const args = structuredClone(raw);
          messages.push(bytesIn(args));
          if (channel === 'studio-piece') return answerPiece(true, args[0], store);
          if (channel === 'studio:autosave') return answerStudioCall('autosave', true, args, async ([s]) => void autosaved.push(s.motion), store);
          return { ok: false, error: { code: 'INTERNAL', message: `unexpected ${channel}` } };
        },
      },
    }));
    vi.stubGlobal('window', { addEventListener: () => undefined });
    try {
      await import('../../../preload/index');
      const studio = exposed! as StudioApi;
      expect(typeof studio.putPiece).toBe('function');
      const ref = await sendInPieces(studio.putPiece!.bind(studio), file.length, slice);
      await studio.autosave({ avatar: { kind: 'builtin', id: 'mannequin' }, motion: refAsBytes(ref), motionName: 'long', undoIndex: 0, view: {} });
      expect(autosaved).toHaveLength(1);
      expect(same(autosaved[0], file)).toBe(true);
      // Two piece messages and one call without bytes; no message carries more than a piece.
      expect(messages).toEqual([PIECE_BYTES, file.length - PIECE_BYTES, 0]);
      // A refusal comes back as the contract's error, code included.
      await expect(studio.putPiece!({ upload: 1, offset: 3, total: 9, bytes: new Uint8Array(1) })).rejects.toMatchObject({ name: 'StudioApiError', code: 'BAD_ARGUMENT' });
    } finally {
      vi.unstubAllGlobals();
      vi.doUnmock('electron');
    }
  });
});

describe('the browser host: Save in pieces over loopback HTTP', () => {
  let tmp: string;
  let folder: string;
  let host: HostServer;
  let backend: StudioBackend;
  let api: StudioApi;
  const old = new Uint8Array(4096).fill(3);

  beforeAll(async () => {
    tmp = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-pieces-')));
    folder = join(tmp, 'motions');
    mkdirSync(folder);
    writeFileSync(join(folder, 'long.vrma'), old);
    mkdirSync(join(tmp, 'renderer'));
    writeFileSync(join(tmp, 'renderer', 'index.html'), '<!doctype html>');
    backend = new StudioBackend({ host: 'browser', homeDir: tmpdir(), userDataDir: join(tmp, 'data'), appVersion: '9.9.9', watchCoalesceMs: 30, autosaveDelayMs: 20 });
    host = await startHostServer({ backend, rendererDir: join(tmp, 'renderer') });
    api = createHttpStudioApi(`http://127.0.0.1:${host.port}`, host.token);
    await api.openFolder(folder);
  });
  afterAll(async () => {
    await host?.close();
    await backend?.dispose();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('cancelled once a piece was answered: the file on disk is the old one; sent whole: it is the new file', async () => {
    const path = join(folder, 'long.vrma');
    const stop = new AbortController();
    await expect(sendInPieces(api.putPiece!.bind(api), file.length, slice, { signal: stop.signal, onProgress: () => stop.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(same(new Uint8Array(readFileSync(path)), old)).toBe(true);
    const shares: number[] = [];
    const ref = await sendInPieces(api.putPiece!.bind(api), file.length, slice, { onProgress: (d) => shares.push(d) });
    // The share sent after each piece's answer (the two pieces are on their way together).
    expect(shares).toHaveLength(2);
    expect([PIECE_BYTES / file.length, (file.length - PIECE_BYTES) / file.length]).toContain(shares[0]);
    expect(shares[1]).toBe(1);
    expect(await api.saveFile({ path, bytes: refAsBytes(ref) })).toEqual({ path, size: file.length });
    expect(same(new Uint8Array(readFileSync(path)), file)).toBe(true);
  });
});
