/**
 * Opening a file of several takes in the studio (issue 30: "take listing" off the main thread): each
 * fixture .fbx/.glb through the file input until the take picker lists its takes, then its third take
 * picked until it is the document; per step the longest main-thread task (aim ≤ 50 ms) and the main
 * thread's CPU, in headless Chromium against the built host (renderer/app/motionFiles.ts parses and
 * converts in the motion file worker).
 *   npx electron-vite build && BENCH_FILTER=takeOpen node --import tsx bench/run.ts
 */
import { existsSync } from 'node:fs';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { benchFixture, waitForFirstAvatarFrame, withStudioPage } from '../testkit/studioPage';
import { installLongTaskObserver, measureAction, settle } from '../testkit/pageProbe';
import { printTable } from './timing';

const FILES = ['fbx/quaternius_robot.fbx', 'fbx/quaternius_animated_human.fbx', 'gltf/kaykit_rig_medium_general.glb'];

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\ntakeOpen bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  const rows: string[][] = [];
  for (const f of FILES) {
    const path = benchFixture(...f.split('/'));
    if (!path || !existsSync(path)) {
      console.log(`takeOpen: ${f} not found; skipped`);
      continue;
    }
    await withStudioPage(async (page) => {
      await installLongTaskObserver(page);
      await page.reload();
      await waitForFirstAvatarFrame(page);
      await page.evaluate(() => (window as unknown as { __studio: { setPlaying(p: boolean): void } }).__studio.setPlaying(false));
      await settle(page, 500);
      const list = await measureAction(page, async () => {
        await page.setInputFiles('#open-file-input', path);
        await page.waitForSelector('#take-picker[open]', { timeout: 120_000 });
      });
      const name = await page.evaluate(() => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName);
      const pick = await measureAction(page, async () => {
        await page.click('#take-picker tr.take-row:nth-child(3) label');
        await page.click('#take-picker [data-choice="open"]');
        await page.waitForFunction((n) => (window as unknown as { __studio: { state(): { motionName: string } } }).__studio.state().motionName !== n, name, { timeout: 120_000 });
      }, 500);
      rows.push([f, 'open → picker lists the takes', list.wallMs.toFixed(0), list.cpuMs.toFixed(0), list.longestTaskMs.toFixed(0)]);
      rows.push([f, 'pick the 3rd take → the document', pick.wallMs.toFixed(0), pick.cpuMs.toFixed(0), pick.longestTaskMs.toFixed(0)]);
    });
  }
  printTable('Opening a file of several takes in the studio (headless Chromium)', ['file', 'step', 'wall ms', 'main-thread cpu ms', 'longest task ms (aim ≤ 50)'], rows);
}
