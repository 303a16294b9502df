/**
 * Large motion files are read off the page's main thread (renderer/app/motionFiles.ts), in Debian
 * Chromium against the built browser host: the 10-minute 60 fps .vrma (32 MB) and the CMU walk BVH
 * repeated to 3 MB in the test are read in the motion-reader worker and give exactly the motion the core reads in
 * Node (the .vrma byte for byte; the BVH's values within 1e-6, as Chromium and Node round a few
 * near-zero values differently); a damaged large file gives the same error in the
 * user's language as when the worker cannot load and the page reads it; and the page reads them too
 * when the worker is blocked. Save of the 10-minute motion is written in the autosave worker (which holds
 * the motion already), and an edit made
 * while it saves stays unsaved (the saved entry is the one written, not the one on screen). How long opening holds the main thread: bench/studioLength.bench.ts.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { FIXTURES_DIR, HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON, newStudioPage } from '../../testkit/browser';
import { openFileInStudio, useHostAndBrowser, useWrittenFolder } from '../../testkit/studioSuite';
import { startHost } from '../../testkit/host';
import { axisAngle, hook, motionBytes, quatMul, state, waitForState, waitForStudio, type Q } from '../../testkit/studioHarness';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { convertToMotion } from '../../shared/formats';
import { makeLongMotion } from '../../testkit/longMotion';
import { expectSameValues } from '../../testkit/motionCompare';

const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;

/** The CMU walk capture (fixture) with its frames repeated to about 3 MB: big enough for the worker. */
function longBvh(): string {
  const text = readFileSync(join(FIXTURES_DIR, 'bvh', 'cmu_12_01_walk.bvh'), 'utf8').replace(/\r\n/g, '\n');
  const at = text.indexOf('Frame Time:');
  const head = text.slice(0, text.lastIndexOf('Frames:', at));
  const frameTime = text.slice(at, text.indexOf('\n', at));
  const rows = text.slice(text.indexOf('\n', at) + 1).split('\n').filter((l) => l.trim());
  const out: string[] = [];
  while (out.length * rows[0].length < 3 * 1024 * 1024) out.push(...rows);
  return `${head}Frames: ${out.length}\n${frameTime}\n${out.join('\n')}\n`;
}

describe.skipIf(!HAS_CHROMIUM)(`large files are read in a worker${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  const suite = useHostAndBrowser();
  const files = useWrittenFolder('vrma-open-large-', () => {
    const cut = writeVrma(makeLongMotion(120));
    return {
      'long.vrma': writeVrma(makeLongMotion()),
      ...(HAS_FIXTURES ? { 'walk_long.bvh': longBvh() } : {}),
      'cut.vrma': cut.subarray(0, cut.length - 1000),
    };
  });
  const open = (file: string, opts: { blockWorker?: boolean } = {}) => openFileInStudio(suite, join(files.dir, file), opts);

  it(`the 10-minute .vrma and a 3 MB BVH: read in the worker, the motion the core reads in Node${HAS_FIXTURES ? '' : ` [BVH part skipped: ${NO_FIXTURES_REASON}]`}`, async () => {
    const cases: [string, string, Uint8Array][] = [['long.vrma', 'long', writeVrma(readVrma(new Uint8Array(readFileSync(join(files.dir, 'long.vrma')))))]];
    if (HAS_FIXTURES) cases.push(['walk_long.bvh', 'walk_long', writeVrma(convertToMotion('walk_long.bvh', new Uint8Array(readFileSync(join(files.dir, 'walk_long.bvh')))))]);
    for (const [file, name, expected] of cases) {
      const run = await open(file);
      await waitForState(run.page, 'motionName', name, 120_000);
      expect(run.workers.some((u) => /motionFileWorker/.test(u))).toBe(true);
      expect(expected.length).toBeGreaterThan(2 * 1024 * 1024);
      const got = await motionBytes(run.page);
      if (file.endsWith('.vrma')) expect(same(got, expected)).toBe(true);
      else expectSameValues(readVrma(got), readVrma(expected));
      expect(run.errors).toEqual([]);
      await run.close();
    }
  });

  it('a damaged large file: the same error through the worker as read in the page (worker blocked)', async () => {
    const texts: string[] = [];
    for (const blockWorker of [false, true]) {
      const run = await open('cut.vrma', { blockWorker });
      await run.page.waitForFunction(() => (window as unknown as { __studio: { state(): { messages: { kind: string }[] } } }).__studio.state().messages.some((m) => m.kind === 'error'), undefined, {
        timeout: 60_000,
      });
      const error = (await state(run.page)).messages.filter((m) => m.kind === 'error').map((m) => m.text);
      texts.push(error.join('\n'));
      expect(run.workers.some((u) => /motionFileWorker/.test(u))).toBe(!blockWorker);
      await run.close();
    }
    expect(texts[0]).toMatch(/cut\.vrma/);
    expect(texts[0].length).toBeGreaterThan(30);
    expect(texts[0]).toBe(texts[1]);
  });

  it('Save of the 10-minute motion is written in the worker; an edit made while it saves stays unsaved', async () => {
    const folder = join(files.dir, 'folder');
    mkdirSync(folder, { recursive: true });
    const original = new Uint8Array(readFileSync(join(files.dir, 'long.vrma')));
    writeFileSync(join(folder, 'long.vrma'), original);
    const own = await startHost({ openPaths: [folder] });
    const { context, page, errors } = await newStudioPage(suite.browser);
    try {
      await page.goto(own.url);
      await waitForStudio(page);
      await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'long.vrma', exact: true }).click();
      await waitForState(page, 'motionName', 'long', 120_000);
      const rotate = async (bone: string) => {
        const q = (await hook<{ rotations: Record<string, number[]> }>(page, 'previewPose', [bone], 30)).rotations[bone];
        await hook(page, 'dragRotate', bone, quatMul(axisAngle([0, 0, 1], Math.PI / 9), q) as Q);
      };
      await hook(page, 'seek', 30);
      await rotate('head');
      const saved = await motionBytes(page);
      const before = await hook<{ writes: number; saves: number }>(page, 'fileWorkerCounts');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      // While the 32 MB are written and uploaded: a second edit.
      await rotate('leftUpperArm');
      const after = await motionBytes(page);
      expect(same(after, saved)).toBe(false);
      await expect.poll(() => same(new Uint8Array(readFileSync(join(folder, 'long.vrma'))), saved), { timeout: 120_000, interval: 250 }).toBe(true);
      await expect.poll(async () => (await state(page)).document.history.length, { timeout: 10_000 }).toBe(3);
      // The file holds the first edit; the second is still unsaved (and Save would write it).
      expect((await state(page)).dirty).toBe(true);
      // Written by the autosave worker from the tracks it holds; the motion file worker got no copy of the motion.
      expect(await hook<{ writes: number; saves: number }>(page, 'fileWorkerCounts')).toEqual({ ...before, saves: before.saves + 1 });
      await hook(page, 'runCommand', 'edit.undo');
      await expect.poll(async () => (await state(page)).dirty).toBe(false);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await own.stop();
    }
  });

  it('a slow Save shows its progress with Cancel; cancelled, the file on disk is untouched and the document stays unsaved', async () => {
    const folder = join(files.dir, 'cancel');
    mkdirSync(folder, { recursive: true });
    const original = new Uint8Array(readFileSync(join(files.dir, 'long.vrma')));
    writeFileSync(join(folder, 'long.vrma'), original);
    const own = await startHost({ openPaths: [folder] });
    const { context, page, errors } = await newStudioPage(suite.browser);
    try {
      // Each piece of the file held a second on its way to the host (the autosave worker's requests).
      let pieces = 0;
      let slow = true;
      await context.route(/\/api\/call\/putPiece$/, async (route) => {
        pieces++;
        if (slow) await new Promise((r) => setTimeout(r, 1000));
        await route.continue();
      });
      await page.goto(own.url);
      await waitForStudio(page);
      await page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'long.vrma', exact: true }).click();
      await waitForState(page, 'motionName', 'long', 120_000);
      await hook(page, 'seek', 30);
      const q = (await hook<{ rotations: Record<string, number[]> }>(page, 'previewPose', ['head'], 30)).rotations.head;
      await hook(page, 'dragRotate', 'head', quatMul(axisAngle([0, 0, 1], Math.PI / 9), q) as Q);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      const cancel = page.locator('#save-progress-cancel');
      await cancel.waitFor({ state: 'visible', timeout: 30_000 });
      expect(await page.locator('#save-progress-text').textContent()).toMatch(/^Saving long\.vrma… \d+%$/);
      await cancel.click();
      await expect.poll(async () => (await state(page)).messages.map((m) => m.text), { timeout: 60_000 }).toContain('Save cancelled: long.vrma on disk was not changed');
      expect(pieces).toBeGreaterThanOrEqual(1);
      await expect.poll(() => page.locator('#save-progress').count()).toBe(0);
      expect(same(new Uint8Array(readFileSync(join(folder, 'long.vrma'))), original)).toBe(true);
      expect((await state(page)).dirty).toBe(true);
      // Saved again at full speed: the file is the edited motion.
      slow = false;
      const edited = await motionBytes(page);
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await expect.poll(async () => (await state(page)).dirty, { timeout: 120_000 }).toBe(false);
      expect(same(new Uint8Array(readFileSync(join(folder, 'long.vrma'))), edited)).toBe(true);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await own.stop();
    }
  });

  it('with the worker blocked the page reads the 10-minute file itself, the same bytes', async () => {
    const run = await open('long.vrma', { blockWorker: true });
    await waitForState(run.page, 'motionName', 'long', 120_000);
    expect(same(await motionBytes(run.page), writeVrma(readVrma(new Uint8Array(readFileSync(join(files.dir, 'long.vrma'))))))).toBe(true);
    await run.close();
  });
});
