import { afterEach, describe, expect, it, vi } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AutosaveSession } from '../../../shared/contract/studioApi';
import { AUTOSAVE_DELAY_MS, AUTOSAVE_QUIET_MS, AutosaveStore } from '../../../main/services/autosave';
import { latestRunner } from '../../../renderer/platform/latestRun';
import { useTempDirs } from './tempDir';

const tempDir = useTempDirs('vrma-autosave-');

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
  // Fake timers: the store's waits are checked to the millisecond, whatever the machine's load. The
  // real-clock figures (timer slack, write time) are in bench/services.bench.ts.
  afterEach(() => {
    vi.useRealTimers();
  });

  /** The session on disk once every write started so far has finished (load() waits for them). */
  const written = async (store: AutosaveStore) => (await store.load())?.undoIndex ?? null;

  it('writes the latest session once the quiet time after the last change has passed, not before', async () => {
    expect(AUTOSAVE_DELAY_MS).toBe(1000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const data = tempDir();
    const store = new AutosaveStore(data, 300);
    for (let i = 1; i <= 5; i++) {
      store.schedule(session(i));
      if (i < 5) vi.advanceTimersByTime(100); // changes 100 ms apart keep pushing the write back
    }
    // The last change came at 400 ms: written 300 ms later, at 700 ms.
    vi.advanceTimersByTime(299);
    expect(await written(store)).toBeNull();
    vi.advanceTimersByTime(1);
    expect(await written(store)).toBe(5);
    expect(readdirSync(join(data, 'autosave')).filter((n) => n.startsWith('motion-'))).toHaveLength(1);
  });

  it('steady edits still reach the disk: written at the 1 s maximum wait after the first unsaved change', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const data = tempDir();
    const store = new AutosaveStore(data); // the product's quiet time and maximum wait
    expect(AUTOSAVE_QUIET_MS).toBeGreaterThan(100);
    // A change every 100 ms, inside the quiet time, so only the maximum wait can write.
    for (let i = 1; i <= 10; i++) {
      store.schedule(session(i)); // at (i - 1) * 100 ms
      vi.advanceTimersByTime(i < 10 ? 100 : 99);
      if (i < 10) expect(await written(store), `after change ${i}`).toBeNull();
    }
    expect(await written(store)).toBeNull(); // 999 ms after the first change
    vi.advanceTimersByTime(1);
    expect(await written(store)).toBe(10); // 1000 ms: the latest session, while the edits go on
    // The next unsaved change starts a new maximum wait.
    store.schedule(session(11));
    vi.advanceTimersByTime(AUTOSAVE_QUIET_MS - 1);
    expect(await written(store)).toBe(10);
    vi.advanceTimersByTime(1);
    expect(await written(store)).toBe(11);
  });

  it('page and main together lose at most 1 s: each change goes straight to the one debouncer, on the injected clock', async () => {
    // Date stays real: only the store's injected clock moves with the fake timers, so a debounce that
    // read Date.now() would never reach its maximum wait under these steady edits and this would fail.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const data = tempDir();
    let clock = 0;
    const store = new AutosaveStore(data, AUTOSAVE_QUIET_MS, () => clock);
    // The page's side as desktopSession.ts runs it: one send in flight, no timer of its own.
    let latest = 0;
    const send = latestRunner(async () => store.schedule(session(latest)));
    const changedAt: number[] = [];
    let worstMs = 0;
    // A change every 100 ms for 2.5 s (always inside the quiet time), sampled every 10 ms for 3 s.
    for (let step = 0; step < 300; step++) {
      if (step % 10 === 0 && step < 250) {
        changedAt[++latest] = clock;
        await send();
      }
      clock += 10;
      vi.advanceTimersByTime(10);
      const onDisk = (await written(store)) ?? 0;
      // How long the oldest change that is not on disk yet has waited: what a crash now would lose.
      if (changedAt[onDisk + 1] !== undefined) worstMs = Math.max(worstMs, clock - changedAt[onDisk + 1]);
    }
    expect(worstMs).toBeGreaterThan(AUTOSAVE_QUIET_MS); // the maximum wait, not the quiet time, bounded it
    expect(worstMs).toBeLessThanOrEqual(AUTOSAVE_DELAY_MS);
    expect(await written(store)).toBe(latest);
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
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    store.schedule(session(2));
    await store.clear();
    // Past the pending write's quiet time (50 ms) on the fake clock: had clear() left it, it would run now.
    vi.advanceTimersByTime(150);
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
