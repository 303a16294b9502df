/**
 * Notices that never hide (issue 27): with two errors on screen, Reverse and Keep range still confirm
 * and Export still says where it wrote; the stack is newest on top, at most three toasts of at most
 * three lines, inside the viewport (never over the transport bar, Set IN/OUT or the timeline: checked
 * by bounding boxes); an error pushed off the stack stays unread behind the bell, whose history lists
 * every notice and marks them read; the History popover closes on Escape and outside clicks and shows
 * an edit's parameters.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath, readFixture } from '../../testkit/fixtures';
import { makeMotionFolder, type MotionFolder } from '../../testkit/studioSuite';
import { dropFiles, hook, openFolder, openStudio, state, waitForState, type StudioSession } from '../../testkit/studioHarness';

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('notices that never hide', () => {
  let work: MotionFolder;
  let s: StudioSession;
  beforeAll(async () => {
    work = makeMotionFolder('vrma-notices-e2e-', { 'cmu_12_01_walk-2.vrma': fixturePath('vrma', 'idle_loop.vrma') });
    s = await openStudio();
    await s.page.setViewportSize({ width: 1024, height: 640 });
    await openFolder(s.page, work.folder);
    const entry = s.page.getByRole('list', { name: 'Library files' }).getByRole('button', { name: 'cmu_12_01_walk-2.vrma' });
    await entry.click();
    await waitForState(s.page, 'motionName', 'cmu_12_01_walk-2');
    await hook(s.page, 'setPlaying', false);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    work?.remove();
  });

  const toasts = async () => (await state(s.page)).toasts;
  /** Every toast's box against the bottom area's controls: none may overlap. */
  const expectNothingCovered = async () => {
    const boxes = await s.page.locator('.messages > .message').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON() as Box));
    expect(boxes.length).toBeGreaterThan(0);
    const guarded: [string, Box | null][] = [];
    for (const name of ['Set IN', 'Set OUT']) guarded.push([name, await s.page.locator('.transport').getByRole('button', { name, exact: true }).boundingBox()]);
    for (const sel of ['.transport', '.timeline', '.bottom']) guarded.push([sel, await s.page.locator(sel).first().boundingBox()]);
    const viewport = (await s.page.locator('.center').boundingBox())!;
    for (const b of boxes) {
      for (const [name, g] of guarded) {
        expect(g, name).not.toBeNull();
        expect(overlaps(b, g!), `a toast at ${JSON.stringify(b)} covers ${name} at ${JSON.stringify(g)}`).toBe(false);
      }
      // Inside the viewport's box (1 px for rounding).
      expect(b.x).toBeGreaterThanOrEqual(viewport.x - 1);
      expect(b.y).toBeGreaterThanOrEqual(viewport.y - 1);
      expect(b.x + b.width).toBeLessThanOrEqual(viewport.x + viewport.width + 1);
      expect(b.y + b.height).toBeLessThanOrEqual(viewport.y + viewport.height + 1);
      // At most three lines of 13 px text at line-height 1.4 plus padding (6 + 6 px and the border).
      expect(b.height).toBeLessThanOrEqual(3 * 13 * 1.4 + 14 + 1);
    }
  };

  it('with two errors on screen, Reverse and Keep range confirm, newest on top, covering nothing', async () => {
    const truncated = readFixture('vrma', 'test.vrma').subarray(0, 300);
    await dropFiles(s.page, [{ name: 'broken-one.vrma', bytes: truncated }]);
    await expect.poll(async () => (await toasts()).filter((t) => t.kind === 'error').length).toBe(1);
    // A long error: clamped to three lines on screen, the whole text in the tooltip.
    await dropFiles(s.page, [{ name: `broken-two-${'very-long-name-'.repeat(12)}.vrma`, bytes: truncated }]);
    await expect.poll(async () => (await toasts()).filter((t) => t.kind === 'error').length).toBe(2);
    expect((await toasts())[0].text).toContain('broken-two-');

    const st = await state(s.page);
    await hook(s.page, 'seek', 0.5);
    await s.page.locator('.transport').getByRole('button', { name: 'Set IN', exact: true }).click();
    await hook(s.page, 'seek', Math.min(1.5, st.duration - 0.1));
    await s.page.locator('.transport').getByRole('button', { name: 'Set OUT', exact: true }).click();
    await expect.poll(async () => (await state(s.page)).range).not.toBeNull();

    await s.page.locator('#edit-reverse').click();
    await expect.poll(async () => (await toasts())[0]).toEqual({ kind: 'success', text: expect.stringMatching(/^Reversed/) });
    expect((await toasts()).filter((t) => t.kind === 'error')).toHaveLength(2);
    await expectNothingCovered();

    await s.page.locator('#edit-keep').click();
    await expect.poll(async () => (await toasts())[0]).toEqual({ kind: 'success', text: expect.stringMatching(/^Keep range: kept 1\.00 s of /) });
    // The same group: one confirmation replaces the other, the errors stay.
    expect((await toasts()).map((t) => t.kind)).toEqual(['success', 'error', 'error']);
    await expectNothingCovered();
    // The long error is clamped on screen, whole in its tooltip.
    const long = s.page.locator('.message.error .message-text').filter({ hasText: 'broken-two-' });
    const [scroll, client, title] = await long.evaluate((e) => [e.scrollHeight, e.clientHeight, e.getAttribute('title') ?? ''] as const);
    expect(scroll).toBeGreaterThan(client);
    expect(title).toContain('very-long-name-'.repeat(12));
  });

  it('Export says where it wrote; the error it pushes off stays unread behind the bell', async () => {
    const bell = s.page.locator('#notice-history-button');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notices: 2 errors not read');
    await s.page.getByRole('button', { name: 'Export .vrma' }).click();
    const expected = join(work.folder, 'cmu_12_01_walk-2.edited.vrma');
    await expect.poll(() => existsSync(expected), { timeout: 20_000 }).toBe(true);
    await expect.poll(async () => (await toasts())[0]?.text).toBe(`Exported a copy to ${expected}`);
    // A third error: the oldest notice leaves the stack first, then the oldest error (still unread).
    await dropFiles(s.page, [{ name: 'broken-three.vrma', bytes: readFixture('vrma', 'test.vrma').subarray(0, 200) }]);
    await expect.poll(async () => (await toasts()).map((t) => t.kind)).toEqual(['error', 'error', 'error']);
    await s.page.locator('#edit-mirror').click();
    await expect.poll(async () => (await toasts()).map((t) => t.kind)).toEqual(['success', 'error', 'error']);
    expect((await toasts()).some((t) => t.text.includes('broken-one.vrma'))).toBe(false);
    await expectNothingCovered();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notices: 3 errors not read');
    expect(await bell.textContent()).toBe('3');

    // The history: every notice, newest first; opening it reads them.
    await bell.click();
    const items = s.page.locator('#notice-history-list > li');
    const texts = await items.locator('.notice-text').allTextContents();
    expect(texts[0]).toMatch(/^Mirrored/);
    expect(texts.some((t) => t.includes('broken-one.vrma'))).toBe(true);
    expect(texts).toContain(`Exported a copy to ${expected}`);
    expect(texts.findIndex((t) => t.includes('broken-three'))).toBeLessThan(texts.findIndex((t) => t.includes('broken-one')));
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Notices');
    // Escape closes it (and is not the studio's Esc: IN/OUT stays cleared only by the studio's own Esc).
    const rangeBefore = (await state(s.page)).range;
    await s.page.keyboard.press('Escape');
    await expect.poll(() => s.page.locator('#notice-history').isHidden()).toBe(true);
    expect((await state(s.page)).range).toEqual(rangeBefore);
  });

  it('the History popover shows parameters and closes on Escape and on a click outside', async () => {
    await s.page.fill('#edit-speed-factor', '0.5');
    await s.page.press('#edit-speed-factor', 'Tab');
    await hook(s.page, 'clearRange');
    await s.page.locator('#edit-speed').click();
    const button = s.page.locator('#history-panel-button');
    await button.click();
    const last = s.page.locator('#history-panel-list > li').last();
    await expect.poll(() => last.locator('.history-detail').textContent()).toBe('Speed: speed ×0.5, duration 1.00 s → 2.00 s');
    await s.page.keyboard.press('Escape');
    await expect.poll(() => s.page.locator('#history-panel').isHidden()).toBe(true);
    await button.click();
    await expect.poll(() => s.page.locator('#history-panel').isVisible()).toBe(true);
    const vp = (await s.page.locator('.center').boundingBox())!;
    await s.page.mouse.click(vp.x + 20, vp.y + vp.height - 20);
    await expect.poll(() => s.page.locator('#history-panel').isHidden()).toBe(true);
  });

  it('a dropped .txt with unsaved changes says its type is not supported, without asking to save', async () => {
    expect((await state(s.page)).dirty).toBe(true);
    const n = (await state(s.page)).messages.length;
    await dropFiles(s.page, [{ name: 'notes.txt', bytes: new TextEncoder().encode('not a motion') }]);
    await waitForState(s.page, 'messages', n + 1);
    const fresh = (await state(s.page)).messages.slice(n);
    expect(fresh).toHaveLength(1);
    expect(fresh[0].kind).toBe('error');
    expect(fresh[0].text).toMatch(/notes\.txt.*not supported|not supported.*notes\.txt/i);
    expect(await s.page.locator('#unsaved-dialog').count()).toBe(0);
    expect((await state(s.page)).dirty).toBe(true);
    expect(s.errors.filter((e) => e.startsWith('pageerror'))).toEqual([]);
  });
});
