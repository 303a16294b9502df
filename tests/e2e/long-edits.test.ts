/**
 * A long edit on a long motion runs off the main thread with progress and Cancel
 * (renderer/app/longEdits.ts), in Debian Chromium against the built browser host, through the UI:
 * Optimize on the 10-minute 60 fps motion (2.2 M keys) starts in the edit worker and shows its bar;
 * Cancel, pressed as soon as the bar moves, stops that worker and leaves the document exactly as it
 * was (the same .vrma bytes, no history entry) and says so; run again (in a new worker), it completes with the bar rising through many
 * steps to 100%, as one undo step with the keys the core's optimize keeps in Node; one undo gives back
 * the original bytes. Smooth, whose result keeps every track's times, comes back from the worker
 * with the values the core's smooth computes in Node (within 1e-6: Chromium's and Node's V8 may
 * round a few values differently).
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { openFileInStudio, useHostAndBrowser, useWrittenFolder } from '../../testkit/studioSuite';
import { hook, motionBytes, state, waitForState } from '../../testkit/studioHarness';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { optimize } from '../../shared/edits/optimize';
import { smooth } from '../../shared/edits/smooth';
import { makeLongMotion } from '../../testkit/longMotion';
import type { Motion } from '../../shared/motion/types';
import { expectSameValues } from '../../testkit/motionCompare';

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
const keyCount = (m: Motion) => m.channels.reduce((s, c) => s + c.times.length, 0);

describe.skipIf(!HAS_CHROMIUM)(`long edits run in a worker with progress and cancel${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  const long = makeLongMotion();
  const suite = useHostAndBrowser();
  const files = useWrittenFolder('vrma-long-edits-', () => ({ 'long.vrma': writeVrma(long) }));
  /** A new page with the 10-minute motion open. */
  async function openLong() {
    const run = await openFileInStudio(suite, join(files.dir, 'long.vrma'));
    await waitForState(run.page, 'motionName', 'long', 120_000);
    return run;
  }

  it('Optimize on the 10-minute motion: cancel leaves the document unchanged; run again, it completes as one undo step', async () => {
    const { context, page, errors, workers } = await openLong();
    try {
      const original = await motionBytes(page);
      const historyBefore = (await state(page)).historyLength;
      await page.evaluate(() => {
        const section = document.getElementById('edit-optimize')!.closest('details');
        if (section) section.open = true;
      });
      const bar = page.locator('#edit-progress');
      expect(await bar.isHidden()).toBe(true);

      // Run 1: Cancel the moment the bar first moves (an observer in the page presses it, so the
      // press cannot come after the edit finished), then wait for the notice.
      await page.evaluate(() => {
        const w = window as unknown as { __cancelAt?: number };
        const progress = document.getElementById('edit-progress-bar')!;
        const observer = new MutationObserver(() => {
          const now = Number(progress.getAttribute('aria-valuenow') ?? 0);
          if (now > 0 && w.__cancelAt === undefined) {
            w.__cancelAt = now;
            observer.disconnect();
            document.getElementById('edit-progress-cancel')!.click();
          }
        });
        observer.observe(progress, { attributes: true });
      });
      await page.locator('#edit-optimize').click();
      await expect.poll(async () => (await state(page)).messages.map((m) => m.text).join('\n'), { timeout: 60_000, interval: 100 }).toContain('Optimize cancelled: the motion is unchanged');
      const cancelAt = await page.evaluate(() => (window as unknown as { __cancelAt?: number }).__cancelAt);
      expect(cancelAt).toBeGreaterThan(0);
      expect(cancelAt).toBeLessThan(100);
      expect(workers.some((u) => /editWorker/.test(u))).toBe(true);
      await expect.poll(() => bar.isHidden(), { timeout: 5_000 }).toBe(true);
      const afterCancel = await state(page);
      expect(afterCancel.historyLength).toBe(historyBefore);
      expect(afterCancel.dirty).toBe(false);
      expect(same(await motionBytes(page), original)).toBe(true);

      // Run 2: every percentage the bar shows is recorded in the page; it completes.
      await page.evaluate(() => {
        const w = window as unknown as { __seen: number[] };
        w.__seen = [];
        const progress = document.getElementById('edit-progress-bar')!;
        new MutationObserver(() => w.__seen.push(Number(progress.getAttribute('aria-valuenow')))).observe(progress, { attributes: true, attributeFilter: ['aria-valuenow'] });
      });
      await expect.poll(() => page.locator('#edit-optimize').isEnabled(), { timeout: 5_000 }).toBe(true);
      await page.locator('#edit-optimize').click();
      await expect.poll(async () => (await state(page)).historyLength, { timeout: 120_000, interval: 200 }).toBe(historyBefore + 1);
      const seen = await page.evaluate(() => (window as unknown as { __seen: number[] }).__seen);
      // At most one write per frame: some of the ~100 steps are merged, yet the bar moves through many.
      expect(new Set(seen).size).toBeGreaterThanOrEqual(5);
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
      expect(seen.some((p) => p > 0 && p < 100)).toBe(true);
      expect(await bar.isHidden()).toBe(true);
      // Cancel terminated the first worker: the second run started a new one.
      expect(workers.filter((u) => /editWorker/.test(u))).toHaveLength(2);
      const done = await state(page);
      expect(done.document.history[done.document.history.length - 1]).toBe('Optimize');
      expect(done.messages.map((m) => m.text).join('\n')).toMatch(/Optimize: .*keys/);
      // The worker's result is the core's, run in Node on the same motion.
      const optimized = readVrma(await motionBytes(page));
      expect(keyCount(optimized)).toBe(keyCount(optimize(readVrma(original))));
      expect(keyCount(optimized)).toBeLessThan(keyCount(long) * 0.5);

      await hook(page, 'runCommand', 'edit.undo');
      await expect.poll(async () => (await state(page)).canUndo, { timeout: 10_000 }).toBe(false);
      expect(same(await motionBytes(page), original)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);

  it("Smooth on the 10-minute motion runs in the worker and gives the core's values", async () => {
    const { context, page, errors, workers } = await openLong();
    try {
      const historyBefore = (await state(page)).historyLength;
      await page.evaluate(() => {
        const w = window as unknown as { __shown: boolean };
        w.__shown = false;
        const box = document.getElementById('edit-progress')!;
        new MutationObserver(() => (w.__shown ||= !box.hidden)).observe(box, { attributes: true });
        const section = document.getElementById('edit-smooth')!.closest('details');
        if (section) section.open = true;
      });
      await page.locator('#edit-smooth').click();
      await expect.poll(async () => (await state(page)).historyLength, { timeout: 120_000, interval: 200 }).toBe(historyBefore + 1);
      expect(await page.evaluate(() => (window as unknown as { __shown: boolean }).__shown)).toBe(true);
      expect(workers.some((u) => /editWorker/.test(u))).toBe(true);
      const got = readVrma(await motionBytes(page));
      const expected = smooth(readVrma(writeVrma(long)));
      // Smooth keeps every track's times: they are compared too.
      expectSameValues(got, expected);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
