/**
 * What the onion skin costs per drawn frame (issue 13): the frame with the two ghosts against the same
 * frame without them, on the built-in mannequin and on the skinned VRM 0.x cryptovoxels avatar, paused
 * at 1 s of the built-in walk (every frame drawn by the test hook and synchronized with a 1-pixel read).
 * The ghosts are two more draws of the avatar alone, so the ratio should stay under about 3x; idle
 * (paused) the studio draws nothing with or without them (tests/e2e/onion-skin.test.ts).
 * Run alone: BENCH_FILTER=onionSkin node --import tsx bench/run.ts (after a build).
 */
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { benchFixture, studioCall, waitForFirstAvatarFrame, withStudioPage } from '../testkit/studioPage';
import { printTable } from './timing';

const FRAMES = 60;

const call = studioCall;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)];

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nonion skin bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  await withStudioPage(async (page) => {
    await waitForFirstAvatarFrame(page);
    const rows: string[][] = [];
    const measure = async (avatar: string) => {
      await call(page, 'seek', 1);
      await call(page, 'setOnionSkin', { enabled: false });
      await call(page, 'frameTimes', 10); // warm-up: shaders of both materials
      await call(page, 'setOnionSkin', { enabled: true });
      await call(page, 'frameTimes', 10);
      await call(page, 'setOnionSkin', { enabled: false });
      const off = await call<number[]>(page, 'frameTimes', FRAMES);
      await call(page, 'setOnionSkin', { enabled: true });
      const on = await call<number[]>(page, 'frameTimes', FRAMES);
      await call(page, 'setOnionSkin', { enabled: false });
      rows.push([avatar, median(off).toFixed(2), median(on).toFixed(2), `${(median(on) / median(off)).toFixed(2)}x`, p95(on).toFixed(2)]);
    };
    await measure('mannequin (built-in, VRM 1.0)');
    const crypto = benchFixture('vrm0', 'cryptovoxels.vrm');
    if (crypto) {
      await page.setInputFiles('#open-file-input', crypto);
      await page.waitForFunction(() => (window as unknown as { __studio: { state(): { avatarName: string | null } } }).__studio.state().avatarName === 'cryptovoxels.vrm', undefined, {
        timeout: 60_000,
      });
      await measure('cryptovoxels.vrm (skinned, VRM 0.x)');
    }
    printTable(
      `Onion skin frame cost, headless Chromium 1280x800 (SwiftShader), ${FRAMES} frames each, ms`,
      ['avatar', 'frame, ghosts off (median)', 'frame, ghosts on (median)', 'on / off', 'on p95'],
      rows,
    );
  });
}
