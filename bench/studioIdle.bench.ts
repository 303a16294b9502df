/**
 * What the studio costs while nothing happens (issue 10: render on demand): CPU of the page over
 * 10 s paused with a motion loaded (idle_loop.vrma from the fixtures, else the built-in walk), against
 * 10 s of playback of the same motion. Aim: paused under 2% of one core (main thread). Headless
 * Chromium with SwiftShader, so a drawn frame costs CPU in the GPU process too: the process-tree
 * column shows it. Run alone: BENCH_FILTER=studioIdle node --import tsx bench/run.ts (after a build).
 */
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { benchFixture, openMotionFile, studioCall, waitForFirstAvatarFrame, withStudioPage } from '../testkit/studioPage';
import { measurePageCpu, percent } from './pageCpu';
import { printTable } from './timing';

const WINDOW_MS = 10_000;

const call = studioCall;

export async function run(): Promise<void> {
  if (!HAS_CHROMIUM) {
    console.log(`\nstudio idle bench skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  await withStudioPage(async (page) => {
    await waitForFirstAvatarFrame(page);
    const fixture = benchFixture('vrma', 'idle_loop.vrma');
    let motion = 'walk (built-in)';
    if (fixture) {
      await openMotionFile(page, fixture, 'idle_loop', 60_000);
      motion = 'idle_loop.vrma';
    }
    const frames = () => call<number>(page, 'framesDrawn');
    const rows: string[][] = [];

    await call(page, 'setPlaying', false);
    await page.waitForTimeout(2000); // springs settle, the autosave of nothing, late layout
    let f0 = await frames();
    const paused = await measurePageCpu(page, WINDOW_MS);
    const pausedFrames = (await frames()) - f0;
    rows.push([`paused, ${motion} loaded (10 s)`, percent(paused.mainThread), percent(paused.processTree), String(pausedFrames), '< 2% main thread']);

    await call(page, 'setPlaying', true);
    await page.waitForTimeout(500);
    f0 = await frames();
    const playing = await measurePageCpu(page, WINDOW_MS);
    const playingFrames = (await frames()) - f0;
    rows.push([`playing ${motion} (10 s)`, percent(playing.mainThread), percent(playing.processTree), String(playingFrames), '']);
    rows.push(['paused / playing (main thread)', `${((paused.mainThread / Math.max(playing.mainThread, 1e-9)) * 100).toFixed(1)}%`, '', '', '']);
    printTable('Studio idle cost (render on demand), headless Chromium 1280x800, SwiftShader', ['state', 'page main thread (of one core)', 'browser process tree', 'frames drawn', 'aim'], rows);
  });
}
