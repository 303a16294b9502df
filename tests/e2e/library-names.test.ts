/**
 * Library names (issue 27) at 1440×900 and 1024×640 on the names: each entry shows its
 * distinguishing word and its extension whole (the ellipsis is in the shared start), no two entries
 * look alike, the tooltip holds the full path, and the folder heading reads as the OS writes it
 * (/tmp/…/motions: the leading slash stays first, the end of the path stays in view).
 */
import { expect, it } from 'vitest';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { openFolderPage, useHostAndBrowser, useMotionFolder } from '../../testkit/studioSuite';

const NAMES: Record<string, string> = {
  'mei_greeting.vmd': fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'),
  'mei_bye.vmd': fixturePath('vmd', 'mmdagent', 'mei_bye.vmd'),
  'cmu_12_01_walk.bvh': fixturePath('bvh', 'cmu_12_01_walk.bvh'),
  'cmu_12_01_walk.edited.vrma': fixturePath('vrma', 'test.vrma'),
  'cmu_12_01_walk-2.edited.vrma': fixturePath('vrma', 'test.vrma'),
  'a-very-long-motion-name-of-a-dance-take-that-does-not-fit.vrma': fixturePath('vrma', 'test.vrma'),
};

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('library names keep what tells them apart', () => {
  const suite = useHostAndBrowser();
  const work = useMotionFolder('vrma-names-e2e-', NAMES);

  for (
    const [width, height] of [
      [1440, 900],
      [1024, 640],
    ] as const
  ) {
    it(`${width}×${height}: distinguishing word and extension whole, full path on hover, heading as written`, async () => {
      const { context, page } = await openFolderPage(suite, work.folder, width, height);
      try {
        const list = page.getByRole('list', { name: 'Library files' });
        await list.getByRole('button', { name: 'mei_greeting.vmd' }).waitFor();
        // Measured with the thumbnails in place (they take room from the names when they arrive).
        await expect.poll(() => list.locator('img.thumb:not([hidden])').count(), { timeout: 30_000 }).toBeGreaterThanOrEqual(3);
        const rows = await list.locator('button.entry').evaluateAll((bs) =>
          bs.map((b) => {
            const part = (cls: string) => b.querySelector<HTMLElement>(cls)!;
            // Drawn width of a part's text against its box: text-overflow cuts at a fraction of a pixel.
            const cut = (el: HTMLElement) => {
              const r = document.createRange();
              r.selectNodeContents(el);
              return r.getBoundingClientRect().width > el.getBoundingClientRect().width + 0.5;
            };
            const [start, word, ext] = [part('.name-start'), part('.name-word'), part('.name-ext')];
            return {
              name: b.getAttribute('aria-label')!,
              title: b.getAttribute('title') ?? '',
              start: start.textContent!,
              end: part('.name-end').textContent!,
              word: word.textContent!,
              endCut: cut(word) || cut(ext),
              startCut: cut(start),
              right: ext.getBoundingClientRect().right,
              boxRight: b.querySelector('.entry-name')!.getBoundingClientRect().right,
            };
          })
        );
        expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(NAMES).sort());
        const by = new Map(rows.map((r) => [r.name, r]));
        expect(by.get('mei_greeting.vmd')!.end).toBe('greeting.vmd');
        expect(by.get('cmu_12_01_walk-2.edited.vrma')!.end).toBe('walk-2.edited.vrma');
        expect(by.get('cmu_12_01_walk-2.edited.vrma')!.word).toBe('walk-2');
        expect(by.get('cmu_12_01_walk.edited.vrma')!.end).toBe('walk.edited.vrma');
        // At least six characters of the stem, from a word start.
        expect(by.get('cmu_12_01_walk.bvh')!.end).toBe('01_walk.bvh');
        for (const r of rows) {
          expect(r.start + r.end).toBe(r.name);
          expect(r.endCut, `${r.name}: its word "${r.word}" or extension is cut`).toBe(false);
          expect(r.right).toBeLessThanOrEqual(r.boxRight + 0.5);
          expect(r.title.split('\n')[0]).toBe(join(work.folder, r.name));
        }
        // No two entries show the same end.
        expect(new Set(rows.map((r) => r.end)).size).toBe(rows.length);
        // The long name is cut in its start, with an ellipsis, at both sizes.
        const long = by.get('a-very-long-motion-name-of-a-dance-take-that-does-not-fit.vrma')!;
        expect(long.startCut).toBe(true);
        expect(long.end).toBe('not-fit.vrma');

        // The heading: the path as written, its first character (/) drawn left of its last one.
        const heading = list.locator('.library-root').first();
        expect(await heading.textContent()).toBe(work.folder);
        expect(await heading.getAttribute('title')).toBe(work.folder);
        const geometry = await heading.evaluate((li) => {
          const text = li.querySelector('bdi')!.firstChild as Text;
          const rects = [...text.data].map((_, i) => {
            const r = document.createRange();
            r.setStart(text, i);
            r.setEnd(text, i + 1);
            const b = r.getBoundingClientRect();
            return { left: b.left, right: b.right, width: b.width };
          });
          const box = li.getBoundingClientRect();
          return { rects, boxLeft: box.left, boxRight: box.right };
        });
        // Characters hidden by the ellipsis have no box; the drawn ones read left to right in order.
        const drawn = geometry.rects.map((r, i) => ({ ...r, i })).filter((r) => r.width > 0);
        const last = geometry.rects.at(-1)!;
        expect(last.width, 'the end of the folder path is drawn').toBeGreaterThan(0);
        expect(last.right).toBe(Math.max(...drawn.map((r) => r.right)));
        expect(last.right).toBeLessThanOrEqual(geometry.boxRight + 0.5);
        for (let k = 1; k < drawn.length; k++) expect(drawn[k].left, `character ${drawn[k].i} of the heading`).toBeGreaterThanOrEqual(drawn[k - 1].left - 0.5);
        if (width === 1440) expect(drawn.length, 'the whole path fits at 1440').toBe(geometry.rects.length);
        await page.screenshot({ path: join('out', 'test-screenshots', `library-names-${width}x${height}.png`) });
      } finally {
        await context.close();
      }
    });
  }
});
