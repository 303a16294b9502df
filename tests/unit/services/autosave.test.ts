import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutosaveSession } from '../../../shared/contract/studioApi';
import { AUTOSAVE_DELAY_MS, AutosaveStore } from '../../../main/services/autosave';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-autosave-');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function session(seed: number, size = 1000): AutosaveSession {
  const motion = new Uint8Array(size);
  for (let i = 0; i < size; i++) motion[i] = (i * 31 + seed * 7) & 0xff;
  return {
    avatar: { kind: 'file', path: '/avatars/robot.vrm' },
    motion,
    motionName: `walk-${seed}`,
    sourcePath: '/motions/walk.vmd',
    undoIndex: seed,
    view: { time: seed / 10, range: [0.5, 1.5], selectedBone: 'leftUpperArm', camera: { position: [1, 1.5, 3], target: [0, 1, 0] } },
  };
}

describe('autosave', () => {
  it('waits about a second after the last change, then writes only the latest session', async () => {
    expect(AUTOSAVE_DELAY_MS).toBe(1000);
    const data = tempDir();
    const store = new AutosaveStore(data, 300);
    const sessionFile = join(data, 'autosave', 'session.json');
    const t0 = Date.now();
    for (let i = 1; i <= 5; i++) {
      store.schedule(session(i));
      await sleep(100); // changes 100 ms apart keep pushing the write back
    }
    expect(existsSync(sessionFile)).toBe(false); // 500 ms of changes, nothing written yet
    while (!existsSync(sessionFile)) {
      if (Date.now() - t0 > 5000) throw new Error('autosave never written');
      await sleep(10);
    }
    const waited = Date.now() - t0;
    // Written 300 ms after the last change (at ~400 ms) — within the timer's slack.
    expect(waited).toBeGreaterThanOrEqual(400 + 300 - 20);
    expect(waited).toBeLessThan(400 + 300 + 600);
    await store.flush();
    const stored = JSON.parse(readFileSync(sessionFile, 'utf8'));
    expect(stored.undoIndex).toBe(5);
    expect(readdirSync(join(data, 'autosave')).filter((n) => n.startsWith('motion-'))).toHaveLength(1);
  });

  it('steady edits still reach the disk: never more than the maximum wait after the first unsaved change', async () => {
    const data = tempDir();
    const store = new AutosaveStore(data, 300, Date.now, 600);
    const sessionFile = join(data, 'autosave', 'session.json');
    const t0 = Date.now();
    let firstWrite = -1;
    for (let i = 1; i <= 15; i++) {
      store.schedule(session(i)); // every 100 ms: the quiet time alone would never come
      await sleep(100);
      if (firstWrite < 0 && existsSync(sessionFile)) firstWrite = Date.now() - t0;
    }
    // Written while the edits go on, 600 ms after the first (plus timer and write slack on a loaded machine).
    expect(firstWrite).toBeGreaterThanOrEqual(600 - 20);
    expect(firstWrite).toBeLessThan(600 + 500);
    await store.flush();
    expect(JSON.parse(readFileSync(sessionFile, 'utf8')).undoIndex).toBe(15);
  });

  it('restores the session exactly: bytes, avatar, source, undo position and view', async () => {
    const data = tempDir();
    const store = new AutosaveStore(data, 50, () => 1234567);
    const s = session(3, 200_003);
    store.schedule(s);
    await store.flush();
    const back = await new AutosaveStore(data).load();
    expect(back).not.toBeNull();
    expect(Buffer.from(back!.motion).equals(Buffer.from(s.motion))).toBe(true);
    const { motion: _a, ...restBack } = back!;
    const { motion: _b, ...restSaved } = s;
    expect(restBack).toEqual({ ...restSaved, savedAt: 1234567 });
  });

  it('a clean save or close removes it, also when a write was still pending', async () => {
    const data = tempDir();
    const store = new AutosaveStore(data, 50);
    store.schedule(session(1));
    await store.flush();
    expect(await store.load()).not.toBeNull();
    store.schedule(session(2));
    await store.clear();
    await sleep(150);
    expect(await store.load()).toBeNull();
    expect(existsSync(join(data, 'autosave'))).toBe(false);
  });

  it('never offers a torn session: motion bytes that do not match session.json are ignored', async () => {
    const data = tempDir();
    const store = new AutosaveStore(data, 10);
    store.schedule(session(4));
    await store.flush();
    const dir = join(data, 'autosave');
    const motionFile = readdirSync(dir).find((n) => n.startsWith('motion-'))!;
    const bytes = readFileSync(join(dir, motionFile));
    bytes[10] ^= 0xff;
    writeFileSync(join(dir, motionFile), bytes);
    expect(await store.load()).toBeNull();
    writeFileSync(join(dir, 'session.json'), '{"version":1,"motionFile":"../../etc/passwd"}');
    expect(await store.load()).toBeNull();
    writeFileSync(join(dir, 'session.json'), 'garbage');
    expect(await new AutosaveStore(data).load()).toBeNull();
  });
});
