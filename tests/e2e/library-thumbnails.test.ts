/**
 * Library thumbnails are made for the entries in view only: in a folder of 40 motions (copies of the
 * idle_loop fixture) the page fetches the bytes of exactly the entries it shows (every thumbnail
 * fetch is a GET /api/file naming the file), and of the ones scrolled into view later, never of the
 * ones in between that were skipped over.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { openFolder, openStudio, type StudioSession } from '../../testkit/studioHarness';

const FILES = 40;
const name = (i: number) => `take-${String(i).padStart(2, '0')}.vrma`;

/** The entries (by file name) that show at least one pixel inside the scrolling library column. */
const entriesInView = (page: Page) =>
  page.locator('.library-entry').evaluateAll((els) => {
    const column = document.querySelector('.left')!.getBoundingClientRect();
    return els
      .filter((e) => {
        const r = e.getBoundingClientRect();
        return r.height > 0 && r.bottom >= column.top && r.top <= column.bottom; // edge-adjacent counts, as for IntersectionObserver
      })
      .map((e) => e.querySelector('button')!.getAttribute('aria-label')!);
  });

const thumbnailsShown = (page: Page) => page.locator('.library-list img.thumb:not([hidden])').count();

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('library thumbnails only for the entries in view', () => {
  let work: MotionFolder;
  let s: StudioSession;
  /** File names whose bytes the page fetched (GET /api/file, the path in a header). */
  const fetched: string[] = [];

  beforeAll(async () => {
    const files: Record<string, string> = {};
    for (let i = 1; i <= FILES; i++) files[name(i)] = fixturePath('vrma', 'idle_loop.vrma');
    work = makeMotionFolder('vrma-thumbs-e2e-', files);
    s = await openStudio();
    s.page.on('request', (r) => {
      if (new URL(r.url()).pathname !== '/api/file') return;
      const path = decodeURIComponent(r.headers()['x-vrma-path'] ?? '');
      fetched.push(path.split(/[\\/]/).pop()!);
    });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  it(`a ${FILES}-motion folder: thumbnails for the entries in view, then for the last ones after a scroll to the end`, async () => {
    const page = s.page;
    await openFolder(page, work.folder);
    const library = page.getByRole('list', { name: 'Library files' });
    await library.getByRole('button', { name: name(FILES) }).waitFor();
    // Every entry's details have arrived (they decide which entries get a thumbnail at all).
    await page.waitForFunction((n) => document.querySelectorAll('.library-list button[data-details]').length >= n, FILES, { timeout: 60_000 });
    const first = await entriesInView(page);
    expect(first.length).toBeGreaterThanOrEqual(4);
    expect(first.length).toBeLessThan(FILES / 2);
    await page.waitForFunction((n) => document.querySelectorAll('.library-list img.thumb:not([hidden])').length >= n, first.length, { timeout: 60_000 });
    // Exactly the entries in view, each once.
    expect([...fetched].sort()).toEqual([...first].sort());
    expect(await thumbnailsShown(page)).toBe(first.length);

    // Scroll the column to the end in one step: the entries skipped over are never fetched.
    await page.locator('.left').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await library.getByRole('button', { name: name(FILES) }).waitFor();
    const last = await entriesInView(page);
    expect(last).toContain(name(FILES));
    expect(last.filter((n) => first.includes(n))).toEqual([]);
    const expected = [...first, ...last].sort();
    await page.waitForFunction((n) => document.querySelectorAll('.library-list img.thumb:not([hidden])').length >= n, expected.length, { timeout: 60_000 });
    expect([...fetched].sort()).toEqual(expected);
    expect(fetched.length).toBeLessThan(FILES);
    expect(s.errors).toEqual([]);
  });
});
