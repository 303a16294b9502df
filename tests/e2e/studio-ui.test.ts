/**
 * The studio's screen: every control has an accessible name (icon buttons a label and a tooltip),
 * the layout at 1280x800 (library left, viewport centre, edits right, timeline bottom) resizes
 * cleanly, and the Studio | Bedroom switcher (also #bedroom in the URL) swaps the scenes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileChooser } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { expectIdle, hook, openStudio, screenshot, state, waitForState, waitForStudio, type StudioSession } from '../../testkit/studioHarness';
import { fixturePath, HAS_FIXTURES, NO_FIXTURES_REASON } from '../../testkit/fixtures';
import { EDITS } from '../../shared/edits/registry';

describe.skipIf(!HAS_CHROMIUM)(`studio: screen${HAS_CHROMIUM ? '' : ` [skipped: ${NO_CHROMIUM_REASON}]`}`, () => {
  let s: StudioSession;
  beforeAll(async () => {
    s = await openStudio();
  });
  afterAll(async () => {
    await s?.close();
  });

  it('gives every control an accessible name; icon buttons carry aria-label and title', async () => {
    const unnamed = await s.page.evaluate(() => {
      const missing: string[] = [];
      for (const el of document.querySelectorAll<HTMLElement>('#studio-view button, #studio-view input, #studio-view select, header button, [role=slider]')) {
        const labels = (el as HTMLInputElement).labels;
        const name = el.getAttribute('aria-label') ||
          (el.getAttribute('aria-labelledby') && document.getElementById(el.getAttribute('aria-labelledby')!)?.textContent) ||
          (labels?.length ? labels[0].textContent : '') ||
          (el.tagName === 'BUTTON' ? el.textContent : '') ||
          el.getAttribute('title');
        if (!name?.trim()) missing.push(el.outerHTML.slice(0, 120));
        if (el.classList.contains('icon') && (!el.getAttribute('aria-label') || !el.getAttribute('title'))) missing.push(`icon without label/title: ${el.outerHTML.slice(0, 120)}`);
      }
      return missing;
    });
    expect(unnamed).toEqual([]);
    // Real buttons reachable by role and name.
    for (const name of ['Undo', 'Redo', 'Open…', 'Export .vrma', 'Set IN', 'Set OUT', 'Reverse', 'Mirror']) {
      expect(await s.page.getByRole('button', { name, exact: true }).count()).toBe(1);
    }
    expect(await s.page.getByRole('slider', { name: /Timeline/ }).count()).toBe(1);
    // Every edit explains itself on hover.
    const titles = await s.page.locator('.edit .apply').evaluateAll((els) => els.map((e) => e.getAttribute('title') ?? ''));
    expect(titles.length).toBe(EDITS.length);
    for (const t of titles) expect(t.length).toBeGreaterThan(20);
  });

  it('lays out library left, viewport centre, edits right and timeline bottom at 1280x800, and resizes', async () => {
    const boxes = async () => ({
      left: (await s.page.locator('aside.left').boundingBox())!,
      viewport: (await s.page.locator('#viewport canvas').boundingBox())!,
      right: (await s.page.locator('aside.right').boundingBox())!,
      timeline: (await s.page.locator('.timeline-overlay').boundingBox())!,
    });
    const b = await boxes();
    expect(b.left.x).toBe(0);
    expect(b.viewport.x).toBeGreaterThanOrEqual(b.left.x + b.left.width - 1);
    expect(b.right.x).toBeGreaterThanOrEqual(b.viewport.x + b.viewport.width - 1);
    expect(b.timeline.y).toBeGreaterThanOrEqual(b.viewport.y + b.viewport.height - 1);
    expect(b.viewport.width).toBeGreaterThan(640);
    expect(b.viewport.height).toBeGreaterThan(450);
    expect(b.timeline.y + b.timeline.height).toBeLessThanOrEqual(800);
    const overflow = await s.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await screenshot(s.page, 'layout-1280x800');

    const bufferWidth = () => s.page.evaluate(() => document.querySelector<HTMLCanvasElement>('#viewport canvas')!.width);
    const wide = await bufferWidth();
    await s.page.setViewportSize({ width: 1024, height: 700 });
    // The viewport's ResizeObserver has run: its drawing buffer changed size (whether it follows the element is asserted below).
    await s.page.waitForFunction((w) => document.querySelector<HTMLCanvasElement>('#viewport canvas')!.width !== w, wide, { timeout: 10_000, polling: 50 });
    const small = await boxes();
    expect(small.viewport.width).toBeLessThan(b.viewport.width);
    expect(small.timeline.y + small.timeline.height).toBeLessThanOrEqual(700);
    expect(small.timeline.width).toBeLessThan(b.timeline.width);
    // The WebGL drawing buffer follows the element (no stretched picture).
    const canvas = await s.page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('#viewport canvas')!;
      return { w: c.width / devicePixelRatio, h: c.height / devicePixelRatio };
    });
    expect(Math.abs(canvas.w - small.viewport.width)).toBeLessThanOrEqual(1);
    expect(Math.abs(canvas.h - small.viewport.height)).toBeLessThanOrEqual(1);
    const share = await hook<number>(s.page, 'silhouetteShare');
    expect(share).toBeGreaterThan(0.02);
    await s.page.setViewportSize({ width: 1280, height: 800 });
  });

  it.skipIf(!HAS_FIXTURES)(`opens files through the Open… button and Ctrl+O (the browser file chooser)${HAS_FIXTURES ? '' : ` [skipped: ${NO_FIXTURES_REASON}]`}`, async () => {
    const [chooser] = await Promise.all([s.page.waitForEvent('filechooser'), s.page.getByRole('button', { name: 'Open…' }).click()]);
    await chooser.setFiles(fixturePath('vrma', 'nop.vrma'));
    await waitForState(s.page, 'motionName', 'nop');
    // Chromium opens one file chooser at a time; on a loaded machine the first may not have closed yet when
    // the key arrives, so the stroke is repeated (up to 3 times, 5 s each) until a chooser opens from it.
    let again: FileChooser | null = null;
    for (let attempt = 0; attempt < 3 && !again; attempt++) {
      await s.page.locator('.timeline-overlay').focus();
      [again] = await Promise.all([
        s.page.waitForEvent('filechooser', { timeout: 5000 }).catch(() => null),
        s.page.keyboard.press('Control+o'),
      ]);
    }
    if (!again) throw new Error('Ctrl+O opened no file chooser in 3 tries');
    expect(again.isMultiple()).toBe(true);
    await again.setFiles(fixturePath('vrma', 'test.vrma'));
    await waitForState(s.page, 'motionName', 'test');
    await hook(s.page, 'setPlaying', true);
  });

  it('plays at the chosen speed, loops or stops at the end', async () => {
    await s.page.selectOption('#speed-select', '2');
    await s.page.uncheck('#loop-toggle');
    const d = (await state(s.page)).duration;
    await hook(s.page, 'seek', Math.max(0, d - 0.5));
    await hook(s.page, 'setPlaying', true);
    await s.page.waitForFunction(() => !(window as unknown as { __studio: { state(): { playing: boolean } } }).__studio.state().playing, undefined, { timeout: 10_000 });
    const st = await state(s.page);
    expect(st.time).toBe(st.duration);
    expect(st.speed).toBe(2);
    // How fast motion time runs against the wall clock at 2x is measured in bench/clocks.bench.ts.
    await s.page.check('#loop-toggle');
    await s.page.selectOption('#speed-select', '1');
    await hook(s.page, 'seek', Math.max(0, d - 0.1));
    await hook(s.page, 'setPlaying', true);
    // Looping: from 0.1 s before the end, time comes back below it (however slowly the machine draws).
    await s.page.waitForFunction((end) => (window as unknown as { __studio: { state(): { time: number } } }).__studio.state().time < end, d - 0.1, { timeout: 10_000 });
    const looped = await state(s.page);
    expect(looped.playing).toBe(true);
    expect(looped.time).toBeLessThan(d - 0.1);
  });

  it('switches to the Bedroom and back; the studio stops drawing meanwhile', async () => {
    await s.page.getByRole('tab', { name: 'Bedroom' }).click();
    await s.page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
    expect(new URL(s.page.url()).hash).toBe('#bedroom');
    expect(await s.page.locator('#studio-view').isHidden()).toBe(true);
    expect(await s.page.locator('#bedroom-view').isVisible()).toBe(true);
    expect((await state(s.page)).playing).toBe(false);
    await expectIdle(s.page, ['viewport'], 20);
    const f0 = await hook<number>(s.page, 'framesDrawn');
    // Studio shortcuts are off while the Bedroom shows.
    const t0 = (await state(s.page)).time;
    await s.page.keyboard.press('End');
    expect((await state(s.page)).time).toBe(t0);

    await s.page.getByRole('tab', { name: 'Studio' }).click();
    expect(await s.page.locator('#studio-view').isVisible()).toBe(true);
    await s.page.waitForFunction((f) => (window as unknown as { __studio: { framesDrawn(): number } }).__studio.framesDrawn() > (f as number) + 3, f0);
    expect((await state(s.page)).playing).toBe(true);
    expect(new URL(s.page.url()).hash).toBe('');
  });

  it('opens the Bedroom directly from #bedroom', async () => {
    const page = await s.context.newPage();
    await page.goto(s.host.url + '#bedroom');
    await waitForStudio(page).catch(() => {});
    await page.waitForFunction(() => !!(window as unknown as { __bedroom?: unknown }).__bedroom, undefined, { timeout: 60_000 });
    expect(await page.locator('#bedroom-view').isVisible()).toBe(true);
    expect(await page.getByRole('tab', { name: 'Bedroom' }).getAttribute('aria-selected')).toBe('true');
    await page.close();
    expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});
