/**
 * MMD models and take files in the studio's library (issue 14), in Chromium against the browser host:
 * an opened folder lists .fbx/.glb motions with their take count (from the backend's describeFile,
 * = the core's listTakes) and a .pmx as the MMD model; a .vmd opened from the folder converts with the
 * .pmx beside it (found by main among the opened folder's files), with a notice naming the model; a
 * .vmd opened without a model, then a .pmx dropped, converts again with it. The motions equal the
 * core's convertVmd with and without the model, and the two differ (leg lengths and arm angles).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { dropFiles, hook, motionBytes, openStudio, state, type StudioSession } from '../../testkit/studioHarness';
import { listTakes, safeTakeName, takeOutputs } from '../../shared/formats/takes';
import { preferredTake } from '../../shared/formats/preferredTake';
import { convertVmd } from '../../shared/convert/mmd/index';
import { readVrma } from '../../shared/vrma/read';
import { sampleChannel } from '../../shared/vrma/sample';
import type { Motion } from '../../shared/motion/types';

/** Largest key value difference of two motions with the same channels and key times (1e-5: float32 + V8 rounding). */
function maxDifference(a: Motion, b: Motion): number {
  expect(a.channels.map((c) => `${c.node}.${c.path}.${c.times.length}`)).toEqual(b.channels.map((c) => `${c.node}.${c.path}.${c.times.length}`));
  let max = 0;
  a.channels.forEach((c, i) => {
    for (let k = 0; k < c.values.length; k++) max = Math.max(max, Math.abs(c.values[k] - b.channels[i].values[k]));
  });
  return max;
}

/**
 * The hips translation (x, y, z per frame of stand.vmd's 121, metres): what the model's leg lengths and
 * centre change most. Sampled: the keys are the VMD's own, sparse (issue 27).
 */
function hipsTranslation(m: Motion): number[] {
  const hips = m.humanoid.boneToNode.hips;
  const ch = m.channels.find((c) => c.node === hips && c.path === 'translation');
  return ch ? Array.from({ length: 121 }, (_, f) => [...sampleChannel(ch, f / 30, new Float64Array(3))]).flat() : [];
}

const largestGap = (a: number[], b: number[]) => Math.max(...a.map((v, i) => Math.abs(v - b[i])));

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: MMD model and take files in the library', () => {
  let s: StudioSession;
  let folder: string;
  const stand = readFixture('vmd', 'gene', 'stand.vmd');
  const pmx = readFixture('pmx', 'Gene.pmx');
  const withModel = convertVmd(stand, { pmx });
  const withoutModel = convertVmd(stand);

  beforeAll(async () => {
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'vrma-mmd-library-')));
    const copy = (from: string, to: string) => {
      copyFileSync(from, to);
      chmodSync(to, 0o644);
    };
    mkdirSync(join(folder, 'gene'));
    copy(fixturePath('vmd', 'gene', 'stand.vmd'), join(folder, 'gene', 'stand.vmd'));
    copy(fixturePath('pmx', 'Gene.pmx'), join(folder, 'gene', 'Gene.pmx'));
    copy(fixturePath('fbx', 'quaternius_robot.fbx'), join(folder, 'robot.fbx'));
    copy(fixturePath('gltf', 'kaykit_rig_medium_general.glb'), join(folder, 'kaykit.glb'));
    s = await openStudio();
  });
  afterAll(async () => {
    await s?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const entry = (page: Page, relPath: string) => page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: relPath, exact: true });

  it('the with/without-model conversions differ (what the studio tests below tell apart)', () => {
    const a = hipsTranslation(withModel);
    const b = hipsTranslation(withoutModel);
    expect(a.length).toBe(121 * 3);
    expect(largestGap(a, b)).toBeGreaterThan(0.03); // 3.75 cm measured
  });

  it('lists .fbx/.glb with their take count and the .pmx as an MMD model', async () => {
    await s.page.getByRole('textbox', { name: 'Folder path to open' }).fill(folder);
    await s.page.getByRole('button', { name: 'Open folder' }).click();
    await entry(s.page, 'robot.fbx').waitFor({ timeout: 30_000 });
    expect(await s.page.getByRole('list', { name: 'Library files' }).getByRole('button').evaluateAll((bs) => bs.map((b) => b.getAttribute('aria-label')))).toEqual([
      'gene/Gene.pmx',
      'gene/stand.vmd',
      'kaykit.glb',
      'robot.fbx',
    ]);
    const robot = listTakes('robot.fbx', readFixture('fbx', 'quaternius_robot.fbx'));
    const kaykit = listTakes('kaykit.glb', readFixture('gltf', 'kaykit_rig_medium_general.glb'));
    // The duration shown is the take that opens when none is named: the longest keyed one (issue 23).
    const shown = (takes: typeof robot) => preferredTake(takes)!.duration.toFixed(2);
    expect(shown(kaykit)).not.toBe(kaykit[0].duration.toFixed(2)); // KayKit's first take is not its longest
    await expect.poll(() => entry(s.page, 'robot.fbx').getAttribute('data-details'), { timeout: 60_000 }).toBe(`motion, ${shown(robot)} s, ${robot.length} takes`);
    await expect.poll(() => entry(s.page, 'kaykit.glb').getAttribute('data-details'), { timeout: 60_000 }).toBe(`motion, ${shown(kaykit)} s, ${kaykit.length} takes`);
    await expect.poll(() => entry(s.page, 'gene/Gene.pmx').getAttribute('data-details'), { timeout: 30_000 }).toBe('MMD model');
    // What the user reads: the take count in the entry, the take names on hover.
    expect(await entry(s.page, 'robot.fbx').textContent()).toContain(`${robot.length} takes`);
    expect(await entry(s.page, 'robot.fbx').getAttribute('title')).toContain(robot[2].name);
  }, 120_000);

  it('a take opened from the library exports beside its file as NAME.TAKE.vrma, as Convert Folder names it', async () => {
    const robot = listTakes('robot.fbx', readFixture('fbx', 'quaternius_robot.fbx'));
    await entry(s.page, 'robot.fbx').click();
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    await s.page.click('#take-picker tr.take-row:nth-child(3) label');
    await s.page.click('#take-picker [data-choice="open"]');
    const name = `robot.${safeTakeName(robot[2].name)}`;
    await s.page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === n, name, { timeout: 60_000 });
    await hook(s.page, 'runCommand', 'file.export');
    const target = join(folder, `${name}.vrma`);
    await expect.poll(() => existsSync(target), { timeout: 30_000 }).toBe(true);
    expect(takeOutputs(join(folder, 'robot.vrma'), robot.map((t) => t.name))[2].output).toBe(target);
    expect(Buffer.from(readFileSync(target)).equals(Buffer.from(await motionBytes(s.page)))).toBe(true);
  }, 120_000);

  it('a .vmd opened from the folder converts with the .pmx beside it; the notice names the model', async () => {
    const n = (await state(s.page)).messages.length;
    await entry(s.page, 'gene/stand.vmd').click();
    await s.page.waitForFunction(() => (window as unknown as { __studio: { state(): { document: { fileLabel: string } } } }).__studio.state().document.fileLabel === 'stand.vmd', undefined, {
      timeout: 60_000,
    });
    const st = await state(s.page);
    const fresh = st.messages.slice(n);
    expect(fresh.filter((m) => m.kind === 'error')).toEqual([]);
    expect(fresh.some((m) => m.kind === 'notice' && m.text.includes('Gene.pmx'))).toBe(true);
    const got = readVrma(await motionBytes(s.page));
    expect(maxDifference(got, readVrma(writeOf(withModel)))).toBeLessThan(1e-5);
    // And not the standard skeleton's conversion.
    expect(largestGap(hipsTranslation(got), hipsTranslation(withoutModel))).toBeGreaterThan(0.03);
  }, 120_000);

  it('a .vmd opened without a model converts with the standard skeleton; a dropped .pmx converts it again', async () => {
    await dropFiles(s.page, [{ name: 'stand.vmd', bytes: stand }]);
    // A drop in the browser has no path: the document has no source file.
    await s.page.waitForFunction(
      () => {
        const st = (window as unknown as { __studio: { state(): { document: { name: string; sourcePath: string | null } } } }).__studio.state();
        return st.document.name === 'stand' && st.document.sourcePath === null;
      },
      undefined,
      { timeout: 60_000 },
    );
    const before = readVrma(await motionBytes(s.page));
    expect(maxDifference(before, readVrma(writeOf(withoutModel)))).toBeLessThan(1e-5);
    // The report says how to give the model in the studio (not the CLI's "pass the model").
    const reports = (await state(s.page)).document.reports;
    expect(reports.some((r) => r.startsWith('stand.vmd: no MMD model in its folder') && r.includes('.pmx'))).toBe(true);
    expect(reports.some((r) => /pass the model/.test(r))).toBe(false);

    const n = (await state(s.page)).messages.length;
    await dropFiles(s.page, [{ name: 'Gene.pmx', bytes: pmx }]);
    await s.page.waitForFunction(
      (k) => (window as unknown as { __studio: { state(): { messages: { text: string }[] } } }).__studio.state().messages.slice(k).some((m) => m.text.includes('Gene.pmx')),
      n,
      { timeout: 60_000 },
    );
    const st = await state(s.page);
    const fresh = st.messages.slice(n);
    expect(fresh.filter((m) => m.kind === 'error')).toEqual([]);
    expect(fresh.some((m) => m.kind === 'notice' && m.text.includes('stand.vmd') && m.text.includes('Gene.pmx'))).toBe(true);
    expect(st.document.name).toBe('stand');
    expect(st.document.reports.some((r) => /no MMD model/.test(r))).toBe(false);
    const after = readVrma(await motionBytes(s.page));
    expect(maxDifference(after, readVrma(writeOf(withModel)))).toBeLessThan(1e-5);
    expect(largestGap(hipsTranslation(after), hipsTranslation(before))).toBeGreaterThan(0.03);
  }, 120_000);
});

import { writeVrma } from '../../shared/vrma/write';
/** Through the writer and reader, as the page's motion bytes are. */
const writeOf = (m: Motion) => writeVrma(m);
