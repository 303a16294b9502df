/**
 * The document model (renderer/app/document.ts): what Save, Save As and Export write, and when
 * nothing is written; the undo position after recovery. A recording store stands in for the disk
 * (the backend's atomic writes and export naming have their own tests in tests/unit/services).
 */
import { describe, expect, it } from 'vitest';
import { MotionDocument, type DocumentStore } from '../../../renderer/app/document';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { mirror } from '../../../shared/edits';
import type { Motion } from '../../../shared/motion/types';

function motion(angle: number): Motion {
  const times = new Float32Array([0, 0.5, 1]);
  const s = Math.sin(angle / 2), c = Math.cos(angle / 2);
  const values = new Float32Array([0, 0, 0, 1, s, 0, 0, c, 0, 0, 0, 1]);
  return buildMotion({ rotations: { leftUpperArm: { times, values } }, generator: 'document test' });
}

type Call = { op: string; path?: string; bytes: Uint8Array };

function recordingStore(opts: { besideName?: (source: string) => string; saveAsPath?: string | null } = {}) {
  const calls: Call[] = [];
  const store: DocumentStore = {
    async replaceFile(path, bytes) {
      calls.push({ op: 'replace', path, bytes });
      return { path, size: bytes.length };
    },
    async writeBeside(source, bytes) {
      const path = opts.besideName ? opts.besideName(source) : source.replace(/\.[^.]+$/, '.vrma');
      calls.push({ op: 'beside', path, bytes });
      return { path, size: bytes.length };
    },
    async saveAs(bytes) {
      if (opts.saveAsPath === null) return null;
      calls.push({ op: 'saveAs', path: opts.saveAsPath, bytes });
      return { path: opts.saveAsPath ?? '/m/new.vrma' };
    },
    async exportLoose(bytes, name) {
      calls.push({ op: 'loose', bytes });
      return { name };
    },
  };
  return { store, calls };
}

describe('MotionDocument', () => {
  it('saves a converted motion once as NAME.vrma beside the source, then replaces that file', async () => {
    const doc = new MotionDocument(motion(0), 'start');
    const opened = motion(0.3);
    doc.open(opened, { name: 'walk', path: '/m/walk.vmd', converted: true });
    expect(doc.dirty).toBe(false); // leaving an unedited conversion does not ask...
    expect(doc.needsSave).toBe(true); // ...but Save writes it
    const { store, calls } = recordingStore();

    const first = await doc.save(store);
    expect(first).toMatchObject({ kind: 'saved', path: '/m/walk.vrma', created: true });
    expect(calls.map((c) => [c.op, c.path])).toEqual([['beside', '/m/walk.vrma']]);
    expect(Buffer.from(calls[0].bytes).equals(Buffer.from(writeVrma(opened)))).toBe(true);
    expect(doc.filePath).toBe('/m/walk.vrma');
    expect(doc.fileLabel).toBe('walk.vrma');

    // Clean: nothing written.
    expect(await doc.save(store)).toEqual({ kind: 'unchanged', path: '/m/walk.vrma' });
    expect(calls.length).toBe(1);

    // Edited: the document's own file is replaced, never a -2 or .edited file.
    const mirrored = mirror(doc.motion);
    doc.commit(mirrored, 'Mirror');
    expect(doc.dirty).toBe(true);
    await doc.save(store);
    expect(calls.map((c) => [c.op, c.path])).toEqual([
      ['beside', '/m/walk.vrma'],
      ['replace', '/m/walk.vrma'],
    ]);
    expect(Buffer.from(calls[1].bytes).equals(Buffer.from(writeVrma(mirrored)))).toBe(true);
    expect(doc.dirty).toBe(false);
  });

  it('saves a .vrma document in place and a document without a file through Save As', async () => {
    const doc = new MotionDocument(motion(0), 'walk');
    const { store, calls } = recordingStore({ saveAsPath: '/m/picked.vrma' });
    doc.commit(motion(0.2), 'Edit');
    await doc.save(store);
    expect(calls.map((c) => [c.op, c.path])).toEqual([['saveAs', '/m/picked.vrma']]);
    expect(doc.name).toBe('picked');

    doc.open(motion(0.4), { name: 'idle', path: '/m/idle.vrma' });
    expect(doc.needsSave).toBe(false);
    expect((await doc.save(store)).kind).toBe('unchanged');
    doc.commit(motion(0.5), 'Edit');
    await doc.save(store);
    expect(calls.at(-1)).toMatchObject({ op: 'replace', path: '/m/idle.vrma' });
  });

  it('keeps the document dirty when Save As is cancelled', async () => {
    const doc = new MotionDocument(motion(0), 'walk');
    doc.commit(motion(0.2), 'Edit');
    const { store, calls } = recordingStore({ saveAsPath: null });
    expect(await doc.save(store)).toEqual({ kind: 'cancelled' });
    expect(calls).toEqual([]);
    expect(doc.dirty).toBe(true);
  });

  it('exports a copy: the document keeps its file and its unsaved edits', async () => {
    const doc = new MotionDocument(motion(0), 'x');
    doc.open(motion(0.1), { name: 'idle', path: '/m/idle.vrma' });
    doc.commit(motion(0.6), 'Edit');
    const { store, calls } = recordingStore({ besideName: (s) => s.replace(/\.vrma$/, '.edited.vrma') });
    const out = await doc.export(store);
    expect(out).toMatchObject({ path: '/m/idle.edited.vrma', name: 'idle.edited.vrma' });
    expect(calls.map((c) => c.op)).toEqual(['beside']);
    expect(doc.filePath).toBe('/m/idle.vrma');
    expect(doc.dirty).toBe(true);
  });

  it('recovers at the undo position: Undo goes back to the file as opened, clean', () => {
    const doc = new MotionDocument(motion(0), 'x');
    const base = motion(0.1);
    doc.open(base, { name: 'walk', path: '/m/walk.vmd', converted: true });
    doc.commit(motion(0.2), 'Mirror');
    doc.commit(motion(0.3), 'Reverse');
    const snap = doc.snapshot();
    expect(snap.undoIndex).toBe(2);
    expect(snap.history.labels).toEqual(['Mirror', 'Reverse']);

    const restored = new MotionDocument(motion(0), 'walk');
    const recovered = motion(0.3);
    restored.recover(recovered, snap, motion(0.1));
    expect(restored.history.position).toBe(1);
    expect(restored.dirty).toBe(true);
    expect(restored.history.entries.map((e) => e.label)).toEqual(['Open', 'Recovered: Mirror, Reverse']);
    expect(restored.pendingConversion).toBe(true);
    expect(restored.sourcePath).toBe('/m/walk.vmd');
    restored.undo();
    expect(restored.dirty).toBe(false);
    expect(Buffer.from(writeVrma(restored.motion)).equals(Buffer.from(writeVrma(base)))).toBe(true);
    restored.redo();
    expect(restored.motion).toBe(recovered);

    // Without the file (moved away), the recovered motion stands alone and stays unsaved.
    const alone = new MotionDocument(motion(0), 'walk');
    alone.recover(recovered, snap, null);
    expect(alone.history.position).toBe(0);
    expect(alone.history.canUndo).toBe(false);
    expect(alone.dirty).toBe(true);
  });

  it('a take opened from a path is titled NAME.TAKE (as the README says), and its .vrma after a save', async () => {
    const doc = new MotionDocument(motion(0), 'start');
    doc.open(motion(0.3), { name: 'quaternius_robot.Dance', path: '/m/quaternius_robot.fbx', converted: true, take: 'Dance' });
    expect(doc.fileLabel).toBe('quaternius_robot.Dance');
    expect(doc.sourcePath).toBe('/m/quaternius_robot.fbx');
    // The naming module gives the take's .vrma its name (tested there); this store answers it.
    const { store } = recordingStore({ besideName: () => '/m/quaternius_robot.Dance.vrma' });
    const saved = await doc.save(store);
    expect(saved).toMatchObject({ kind: 'saved', path: '/m/quaternius_robot.Dance.vrma' });
    expect(doc.fileLabel).toBe('quaternius_robot.Dance.vrma');
    // A file without takes keeps its own name until saved.
    doc.open(motion(0.2), { name: 'walk', path: '/m/walk.vmd', converted: true });
    expect(doc.fileLabel).toBe('walk.vmd');
  });

  it('moves only to motions the views can show: a refused edit, undo, redo or jump leaves it where it was', () => {
    const a = motion(0), b = motion(0.3), c = motion(0.6);
    const doc = new MotionDocument(a, 'start');
    const refused = new Set<Motion>();
    const asked: Motion[] = [];
    doc.showsWith((m) => {
      asked.push(m);
      return !refused.has(m);
    });
    let changes = 0;
    doc.events.on('changed', () => changes++);
    expect(doc.commit(b, 'B')).toBe(true);
    expect(doc.commit(c, 'C')).toBe(true);
    expect(asked).toEqual([b, c]);
    expect(changes).toBe(2);

    // The edit the views refuse: not in the history, no change announced, the document unchanged.
    const d = motion(0.9);
    refused.add(d);
    expect(doc.commit(d, 'D')).toBe(false);
    expect([doc.motion, doc.history.length, changes]).toEqual([c, 3, 2]);

    // Undo to a refused motion stays; once it shows, undo goes there, and a refused redo stays.
    refused.add(b);
    expect(doc.undo()).toBe(false);
    expect([doc.motion, doc.history.position]).toEqual([c, 2]);
    refused.delete(b);
    expect(doc.undo()).toBe(true);
    expect(doc.motion).toBe(b);
    refused.add(c);
    expect(doc.redo()).toBe(false);
    expect(doc.goTo(2)).toBe(false);
    expect([doc.motion, doc.history.position, changes]).toEqual([b, 1, 3]);
    // The jump asks about the entry it goes to: the first one shows.
    expect(doc.goTo(0)).toBe(true);
    expect(asked.at(-1)).toBe(a);
    expect(doc.motion).toBe(a);
    // Past either end nothing is asked and nothing moves.
    const n = asked.length;
    expect(doc.undo()).toBe(false);
    expect(doc.goTo(7)).toBe(false);
    expect(asked.length).toBe(n);
  });
});
