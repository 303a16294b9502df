/**
 * Layout in both languages (issue 27): the studio in English and Japanese at 1440×900, 1280×720 and
 * 1024×640, with a folder and a motion open, screenshots taken (docs/screenshots with
 * UPDATE_SCREENSHOTS=1, else out/test-screenshots). Fails on:
 *  - a visible control without an accessible name (aria-label, aria-labelledby, its <label>, text, title);
 *  - a control whose text is clipped (scrollWidth past clientWidth where it hides overflow, or an ellipsis);
 *  - a transport-bar field whose label is hidden (the bar drops no label at 1024×640);
 *  - in Japanese, a line of a label, button, heading or hint that starts with 、。）」… or inside a word:
 *    line starts come from Range.getClientRects of each character, words from Intl.Segmenter (ICU's
 *    dictionary, not the studio's phrase code).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { REPO_DIR } from '../../testkit/host';
import { fixturePath, HAS_FIXTURES } from '../../testkit/fixtures';
import { makeMotionFolder, useHostAndBrowser, type MotionFolder } from '../../testkit/studioSuite';
import { hook, SCREENSHOT_DIR, settleDraws, settleLayout, waitForState, waitForStudio } from '../../testkit/studioHarness';

const SIZES = [
  [1440, 900],
  [1280, 720],
  [1024, 640],
] as const;
/** What no line may start with (kinsoku): Japanese punctuation, closing brackets, small kana; ASCII . or , unless it starts an extension (.vrma). */
const NO_LINE_START = /^(?:[、。，．)）」』】〉》…・ーっゃゅょァィゥェォッャュョ]|[.,](?![A-Za-z0-9]))/u;

interface Control {
  readonly what: string;
  readonly name: string;
  readonly clipped: string | null;
}
interface Line {
  readonly what: string;
  readonly text: string;
  /** Index in `text` where a line after the first starts. */
  readonly at: number;
}

describe.skipIf(!HAS_CHROMIUM || !HAS_FIXTURES)(`layout in English and Japanese${HAS_CHROMIUM ? '' : ` (${NO_CHROMIUM_REASON})`}`, () => {
  const suite = useHostAndBrowser();
  // One folder for all six pages: the host keeps the folders it opened, and the screenshots show one.
  let motions: MotionFolder;
  beforeAll(() => {
    motions = makeMotionFolder('vrma-layout-lang-', {
      'mei_greeting.vmd': fixturePath('vmd', 'mmdagent', 'mei_greeting.vmd'),
      'cmu_12_01_walk-2.edited.vrma': fixturePath('vrma', 'test.vrma'),
      'cmu_12_01_walk.bvh': fixturePath('bvh', 'cmu_12_01_walk.bvh'),
    });
  });
  afterAll(() => motions?.remove());
  const words = new Intl.Segmenter('ja', { granularity: 'word' });
  /** Where words start in `text` (and its end). */
  const wordStarts = (text: string) => new Set([...words.segment(text)].map((s) => s.index).concat(text.length));

  for (const lang of ['en', 'ja'] as const)
    for (const [width, height] of SIZES)
      it(`${lang} at ${width}×${height}: every control named and whole${lang === 'ja' ? ', lines break between words, never before punctuation' : ''}`, async () => {
        const context = await suite.browser.newContext({ locale: lang === 'ja' ? 'ja-JP' : 'en-US', viewport: { width, height } });
        const page = await context.newPage();
        try {
          await page.goto(suite.host.url);
          await waitForStudio(page);
          // By id: the folder box's label is in the page's language.
          await page.locator('#folder-path').fill(motions.folder);
          await page.locator('#open-folder').click();
          const entry = page.locator('button.entry[aria-label="cmu_12_01_walk-2.edited.vrma"]');
          await entry.click();
          await waitForState(page, 'motionName', 'cmu_12_01_walk-2.edited');
          await hook(page, 'setPlaying', false);
          await hook(page, 'seek', 0.5);
          await settleLayout(page); // fonts loaded, nothing moving
          await settleDraws(page, ['viewport', 'timeline', 'dopeSheet']);

          const controls = await page.evaluate(() => {
            const out: { what: string; name: string; clipped: string | null }[] = [];
            const sel = 'button, input:not([type=hidden]), select, summary, [role=tab], [role=separator], a[href]';
            const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${typeof el.className === 'string' && el.className ? `.${el.className.split(' ')[0]}` : ''}`;
            for (const el of document.querySelectorAll<HTMLElement>(sel)) {
              if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || el.closest('.visually-hidden, [aria-hidden="true"]')) continue;
              const r = el.getBoundingClientRect();
              if (r.width < 2 || r.height < 2) continue;
              const labelled = el.getAttribute('aria-labelledby')?.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
              const labels = 'labels' in el ? [...((el as HTMLInputElement).labels ?? [])].map((l) => l.textContent ?? '').join(' ') : '';
              const name = (el.getAttribute('aria-label') || labelled || labels || (el instanceof HTMLInputElement ? '' : el.textContent) || el.title || '').trim();
              let clipped: string | null = null;
              for (const a of [el, ...el.querySelectorAll<HTMLElement>('*')]) {
                const cs = getComputedStyle(a);
                // A library entry's name and its size · date line are cut on purpose (the name in its shared
                // start: library-names.test.ts); the whole of both is the entry's tooltip and description.
                if (a.closest('.entry-text')) continue;
                const hides = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis';
                if (hides && a.scrollWidth > a.clientWidth + 1 && a.tagName !== 'SELECT' && a.tagName !== 'INPUT') clipped = `${describe(a)} ${a.scrollWidth} > ${a.clientWidth} px`;
              }
              out.push({ what: describe(el), name, clipped });
            }
            return out;
          });
          expect(controls.length).toBeGreaterThan(40);
          const nameless = controls.filter((c: Control) => !c.name).map((c) => c.what);
          expect(nameless, 'controls without an accessible name').toEqual([]);
          const clipped = controls.filter((c: Control) => c.clipped).map((c) => `${c.what}: ${c.clipped}`);
          expect(clipped, 'controls whose text is clipped').toEqual([]);

          // The transport bar keeps every label (Loop, Speed, Falloff) visible at every size.
          const fieldLabels = await page.locator('.transport .field > span').evaluateAll((spans) =>
            spans.map((s) => ({ text: s.textContent, shown: (s as HTMLElement).checkVisibility() && s.getBoundingClientRect().width > 4 }))
          );
          expect(fieldLabels.length).toBeGreaterThanOrEqual(3);
          for (const f of fieldLabels) expect(f.shown, `transport label "${f.text}"`).toBe(true);

          if (lang === 'ja') {
            const lines: Line[] = await page.evaluate(() => {
              const found: { what: string; text: string; at: number }[] = [];
              const sel = 'button, label, summary, h1, h2, h3, .hint, .reason, .field > span, [role=tab], .message-text';
              for (const el of document.querySelectorAll<HTMLElement>(sel)) {
                if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || el.closest('.visually-hidden, .library-list')) continue;
                const chars: { top: number; index: number }[] = [];
                let index = 0;
                const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
                for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                  const t = n as Text;
                  for (let i = 0; i < t.length; i++, index++) {
                    if (/\s/.test(t.data[i])) continue;
                    const range = document.createRange();
                    range.setStart(t, i);
                    range.setEnd(t, i + 1);
                    const rect = range.getClientRects()[0];
                    if (rect && rect.width > 0) chars.push({ top: rect.top, index });
                  }
                }
                const text = el.textContent ?? '';
                for (let k = 1; k < chars.length; k++)
                  if (chars[k].top > chars[k - 1].top + 4) found.push({ what: `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}`, text, at: chars[k].index });
              }
              return found;
            });
            const bad: string[] = [];
            for (const l of lines) {
              const rest = l.text.slice(l.at);
              if (NO_LINE_START.test(rest)) bad.push(`${l.what} "${l.text}": a line starts with "${rest[0]}"`);
              // A break inside a word of Japanese text (Latin words break at spaces anyway).
              else if (/[\u3040-\u30ff\u3400-\u9fff]/u.test(l.text[l.at - 1] + l.text[l.at]) && !wordStarts(l.text).has(l.at))
                bad.push(`${l.what} "${l.text}": breaks inside a word at "${l.text.slice(0, l.at)} / ${rest}"`);
            }
            expect(bad).toEqual([]);
          }

          const name = `studio-${lang}-${width}x${height}.png`;
          mkdirSync(SCREENSHOT_DIR, { recursive: true });
          await page.screenshot({ path: join(SCREENSHOT_DIR, name) });
          if (process.env.UPDATE_SCREENSHOTS === '1') {
            mkdirSync(join(REPO_DIR, 'docs', 'screenshots'), { recursive: true });
            await page.screenshot({ path: join(REPO_DIR, 'docs', 'screenshots', name) });
          }
        } finally {
          await context.close();
        }
      });
});
