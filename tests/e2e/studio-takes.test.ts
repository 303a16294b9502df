/**
 * The take picker (issue 14): an .fbx/.glb with several takes opened or dropped in the studio asks
 * which take, listing each take's name, duration, fps and keys exactly as the core's listTakes (the
 * module behind `vrma-studio convert --list-takes`); the chosen take opens and equals, byte for byte,
 * the core's conversion of that take; Cancel keeps the current document. A VRM that also carries
 * animations asks whether it is the avatar or a motion. The file is parsed and the take converted in
 * the motion file worker (renderer/app/motionFiles.ts openTakeFileOffThread).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { dropFiles, hook, motionBytes, openStudio, state, type StudioSession } from '../../testkit/studioHarness';
import { listTakes, openTakes, safeTakeName } from '../../shared/formats/takes';
import { writeVrma } from '../../shared/vrma/write';
import { readVrma } from '../../shared/vrma/read';
import { durationOf } from '../../shared/motion/types';
import { parseGlb, packGlb } from '../../shared/gltf/glb';
import { encodeBinaryFbx, fbxScene } from '../../testkit/fbxWriter';

const keyCount = (bytes: Uint8Array) => readVrma(bytes).channels.reduce((n, c) => n + c.times.length, 0);

/**
 * Largest difference between two motions' key values, with the same channels and key times required.
 * Chromium's and Node's V8 may round a trigonometric result differently in the last bit, so the page's
 * conversion can differ from Node's by ~1e-17 on values near zero: compared to 1e-6.
 */
function maxValueDifference(a: Uint8Array, b: Uint8Array): number {
  const ma = readVrma(a);
  const mb = readVrma(b);
  expect(ma.channels.map((c) => `${c.node}.${c.path}`)).toEqual(mb.channels.map((c) => `${c.node}.${c.path}`));
  let max = 0;
  ma.channels.forEach((c, i) => {
    const d = mb.channels[i];
    expect([...c.times]).toEqual([...d.times]);
    for (let k = 0; k < c.values.length; k++) max = Math.max(max, Math.abs(c.values[k] - d.values[k]));
  });
  return max;
}

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: take picker for FBX/glTF files with several takes', () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The rows of the open take picker as the user sees them. */
  const pickerRows = (page: Page) => page.$$eval('#take-picker tr.take-row', (rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent?.trim() ?? '')));

  async function pickTake(page: Page, index: number): Promise<void> {
    await page.click(`#take-picker tr.take-row:nth-child(${index + 1}) label`);
    await page.click('#take-picker [data-choice="open"]');
  }

  async function waitForName(page: Page, name: string): Promise<void> {
    await page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName === n, name, { timeout: 60_000 });
  }

  for (
    const [dir, file, how] of [
      ['fbx', 'quaternius_robot.fbx', 'open'],
      ['gltf', 'kaykit_rig_medium_general.glb', 'drop'],
    ] as const
  ) {
    it(`${file} (${how}): the picker lists the core's takes; the 3rd take opens equal to the core's conversion`, async () => {
      const bytes = readFixture(dir, file);
      const takes = listTakes(file, bytes);
      expect(takes.length).toBeGreaterThanOrEqual(3);
      const reads = (await hook<{ reads: number }>(s.page, 'fileWorkerCounts')).reads;
      if (how === 'open') await s.page.setInputFiles('#open-file-input', fixturePath(dir, file));
      else await dropFiles(s.page, [{ name: file, bytes }]);
      await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
      const rows = await pickerRows(s.page);
      // Name, duration (2 decimals), fps, keys: the same numbers as --list-takes.
      expect(rows.map((r) => r[0])).toEqual(takes.map((t) => t.name));
      expect(rows.map((r) => r[1])).toEqual(takes.map((t) => `${t.duration.toFixed(2)} s`));
      expect(rows.map((r) => Number(r[2]))).toEqual(takes.map((t) => t.fps));
      expect(rows.map((r) => Number(r[3].replace(/,/g, '')))).toEqual(takes.map((t) => t.keys));

      const n = (await state(s.page)).messages.length;
      await pickTake(s.page, 2);
      const stem = file.replace(/\.[^.]+$/, '');
      await waitForName(s.page, `${stem}.${safeTakeName(takes[2].name)}`);
      const st = await state(s.page);
      expect(st.messages.slice(n).filter((m) => m.kind === 'error')).toEqual([]);
      // Parsed and converted in the motion file worker, not on the page's main thread (issue 30: 220-280 ms for this FBX).
      expect((await hook<{ reads: number }>(s.page, 'fileWorkerCounts')).reads).toBe(reads + 1);
      const expected = writeVrma(openTakes(file, bytes).convert(takes[2].name));
      const got = await motionBytes(s.page);
      // The studio's motion is the core's conversion of that take: same duration, same keys, same bytes.
      expect(st.duration).toBeCloseTo(durationOf(readVrma(expected)), 6);
      expect(keyCount(got)).toBe(keyCount(expected));
      expect(maxValueDifference(got, expected)).toBeLessThan(1e-6);
      // And it is not the first take (which the studio opened before the picker existed).
      expect(keyCount(got) !== keyCount(writeVrma(openTakes(file, bytes).convert(takes[0].name))) || durationOf(readVrma(got)) !== takes[0].duration).toBe(true);
      expect(st.messages.slice(n).some((m) => m.kind === 'notice' && m.text.includes(takes[2].name))).toBe(true);
    }, 180_000);
  }

  it('a Mixamo FBX: the empty "Take 001" is listed but disabled with "no keys"; "mixamo.com" is preselected and opens', async () => {
    const bytes = encodeBinaryFbx(fbxScene({
      prefix: 'mixamorig:',
      takeName: 'mixamo.com',
      emptyTake: { name: 'Take 001', seconds: 3.33 },
      rotations: { LeftArm: Array.from({ length: 10 }, (_, f) => [0, 0, -6 * f] as const) },
      hips: Array.from({ length: 10 }, (_, f) => [f, 95, 0] as const),
    }));
    const n = (await state(s.page)).messages.length;
    await dropFiles(s.page, [{ name: 'mixamo.fbx', bytes }]);
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    const rows = await pickerRows(s.page);
    expect(rows.map((r) => [r[0], r[3]])).toEqual([['Take 001', 'no keys'], ['mixamo.com', String(10 * 3 * 2)]]);
    const radios = await s.page.$$eval('#take-picker input[type="radio"]', (els) => els.map((e) => [(e as HTMLInputElement).disabled, (e as HTMLInputElement).checked]));
    expect(radios).toEqual([[true, false], [false, true]]);
    // Clicking the empty take changes nothing; Open opens the motion.
    await s.page.click('#take-picker tr.take-row:nth-child(1) td:nth-child(2)');
    expect(await s.page.$eval('#take-picker tr.take-row:nth-child(2) input', (e) => (e as HTMLInputElement).checked)).toBe(true);
    await s.page.click('#take-picker [data-choice="open"]');
    await waitForName(s.page, 'mixamo.mixamo.com');
    const st = await state(s.page);
    expect(st.messages.slice(n).filter((m) => m.kind === 'error')).toEqual([]);
    expect(maxValueDifference(await motionBytes(s.page), writeVrma(openTakes('mixamo.fbx', bytes).convert('mixamo.com')))).toBeLessThan(1e-6);
  }, 120_000);

  it('Cancel keeps the current document (bytes, name, undo depth)', async () => {
    const before = await state(s.page);
    const bytesBefore = await motionBytes(s.page);
    await dropFiles(s.page, [{ name: 'robot_expressive.glb', bytes: readFixture('gltf', 'robot_expressive.glb') }]);
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    expect((await pickerRows(s.page)).length).toBe(14);
    await s.page.click('#take-picker [data-choice="cancel"]');
    await s.page.waitForSelector('#take-picker', { state: 'detached' });
    const after = await state(s.page);
    expect(after.motionName).toBe(before.motionName);
    expect(after.undoDepth).toBe(before.undoDepth);
    expect(Buffer.from(await motionBytes(s.page)).equals(Buffer.from(bytesBefore))).toBe(true);
    expect(after.messages.slice(before.messages.length).filter((m) => m.kind === 'error')).toEqual([]);
  }, 120_000);

  it('a VRM that also carries animations asks: Cancel keeps everything, "Open as motion" converts the chosen take', async () => {
    // robot_expressive.glb marked as a VRM 1.0 file: an avatar that carries 14 animations.
    const g = parseGlb(readFixture('gltf', 'robot_expressive.glb'));
    const json = structuredClone(g.json) as Record<string, any>;
    json.extensions = {
      ...(json.extensions ?? {}),
      VRMC_vrm: { specVersion: '1.0', humanoid: { humanBones: {} }, meta: { name: 'robot', licenseUrl: 'https://vrm.dev/licenses/1.0/', avatarPermission: 'onlyAuthor' } },
    };
    json.extensionsUsed = [...(json.extensionsUsed ?? []), 'VRMC_vrm'];
    const vrm = packGlb(json, g.bin);
    const before = await state(s.page);
    await dropFiles(s.page, [{ name: 'robot_avatar.glb', bytes: vrm }]);
    await s.page.waitForSelector('#avatar-or-motion[open]', { timeout: 60_000 });
    expect(await s.page.textContent('#avatar-or-motion .dialog-text')).toContain('14');
    await s.page.click('#avatar-or-motion [data-choice="cancel"]');
    await s.page.waitForSelector('#avatar-or-motion', { state: 'detached' });
    let st = await state(s.page);
    expect(st.motionName).toBe(before.motionName);
    expect(st.avatarName).toBe(before.avatarName);

    await dropFiles(s.page, [{ name: 'robot_avatar.glb', bytes: vrm }]);
    await s.page.waitForSelector('#avatar-or-motion[open]', { timeout: 60_000 });
    await s.page.click('#avatar-or-motion [data-choice="motion"]');
    await s.page.waitForSelector('#take-picker[open]', { timeout: 60_000 });
    const takes = listTakes('robot_avatar.glb', vrm);
    await pickTake(s.page, 2);
    await waitForName(s.page, `robot_avatar.${safeTakeName(takes[2].name)}`);
    st = await state(s.page);
    expect(st.avatarName).toBe(before.avatarName);
    expect(maxValueDifference(await motionBytes(s.page), writeVrma(openTakes('robot_avatar.glb', vrm).convert(takes[2].name)))).toBeLessThan(1e-6);
  }, 180_000);
});
