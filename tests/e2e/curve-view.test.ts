/**
 * The curve view driven with the mouse and keyboard (issue 13), on the idle_loop fixture and on a
 * generated motion whose hips turn through ±180°: G toggles it (listed in the ? overlay), a key of
 * a bone's Euler curve dragged up by 40 pixels gives exactly the core's moveKeyValues bytes (and the
 * readout in the bar says the new value), a box + Shift+click selection dragged down 30 pixels the
 * core's moveKeyValues per component (one undo step), the Euler curve is continuous, the optimizer's band shows
 * while the optimize section is open, and the canvas really has curves on it.
 * window.__curveView (test hook only) gives key positions and values; every action goes through the UI.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../../testkit/browser';
import { describeFixtures, fixturePath } from '../../testkit/fixtures';
import { curveViewCall, hook, motionBytes, openStudio, settleDraws, state, waitForState, type StudioSession } from '../../testkit/studioHarness';
import { readVrma } from '../../shared/vrma/read';
import { writeVrma } from '../../shared/vrma/write';
import { buildMotion } from '../../shared/vrma/buildMotion';
import { moveKeyValues, rotationEulerSeries } from '../../shared/edits/moveKeyValues';
import { fromAxisAngle, mul } from '../../shared/math/quat';
import { findChannel } from '../../shared/motion/types';
import { editById, runEdit } from '../../shared/edits/registry';
import type { KeySelection } from '../../shared/edits/keySelection';

type Pt = { x: number; y: number };
type Hooked = {
  keyClientPoint(id: string, c: number, k: number): Pt | null;
  keyValue(id: string, c: number, k: number): number | null;
  unitsPerPixel(): number;
  largestStep(id: string): number | null;
  curveIds(): { id: string; kind: string; keys: number }[];
  droppedCount(id: string): number;
  visible: boolean;
  draws: number;
  lastEdit: { component: number; delta: number; selection: KeySelection }[];
};
const cv = curveViewCall;
/** The last action drawn: the dope sheet and the curve view stood still for a few animation frames. */
const drawn = (page: Page) => settleDraws(page, ['dopeSheet', 'curveView']);

/** Selects a bone by clicking its row label in the dope sheet (once the sheet has the motion's rows). */
async function pickBoneRow(page: Page, node: number, bone: string): Promise<void> {
  const rowY = () => page.evaluate((n) => (window as unknown as { __dopeSheet: { rowClientY(n: number, p: string): number | null } }).__dopeSheet.rowClientY(n, 'rotation'), node);
  await expect.poll(rowY).not.toBeNull();
  await page.evaluate((n) => (window as unknown as { __dopeSheet: { revealRow(n: number, p: string): void } }).__dopeSheet.revealRow(n, 'rotation'), node);
  await drawn(page);
  const box = (await page.locator('#dope-sheet').boundingBox())!;
  const yy = (await rowY())!;
  await page.mouse.click(box.x + 30, yy);
  await expect.poll(async () => (await state(page)).selectedBone).toBe(bone);
}

/** Closes the edit panel's section holding Optimize (its "panel"): the band goes. */
async function closeOptimizeSection(page: Page): Promise<void> {
  await page.evaluate(() => {
    (document.getElementById('edit-optimize')!.closest('details') as HTMLDetailsElement).open = false;
  });
}

/** Counts pixels of the static canvas inside the plot whose colour is one of the axis colours (red, green, blue dominant). */
async function curvePixels(page: Page): Promise<{ red: number; green: number; blue: number }> {
  return page.evaluate(() => {
    const c = document.querySelector('.curve-static') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    const dpr = c.width / c.clientWidth;
    const left = Math.ceil(120 * dpr);
    // The plot only: right of the value gutter, under the ruler, left of the legend.
    const right = c.width - Math.ceil(190 * dpr);
    const top = Math.ceil(24 * dpr);
    let red = 0, green = 0, blue = 0;
    for (let y = top; y < c.height; y++) {
      for (let x = left; x < right; x++) {
        const o = (y * c.width + x) * 4;
        const [r, g, b] = [d[o], d[o + 1], d[o + 2]];
        if (r > 150 && r > g + 60 && r > b + 60) red++;
        else if (g > 150 && g > r + 50 && g > b + 50) green++;
        else if (b > 150 && b > r + 50 && b > g + 20) blue++;
      }
    }
    return { red, green, blue };
  });
}

describeFixtures.skipIf(!HAS_CHROMIUM, NO_CHROMIUM_REASON)('studio: curve view', () => {
  let s: StudioSession;
  let dir: string;
  beforeAll(async () => {
    s = await openStudio();
    await hook(s.page, 'setPlaying', false);
    dir = mkdtempSync(join(tmpdir(), 'vrma-curves-e2e-'));
  });
  afterAll(async () => {
    await s?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('G opens the curves of the selected bone; a key dragged up 40 px is the core moveKeyValues result (idle_loop.vrma)', async () => {
    const page = s.page;
    await page.setInputFiles('#open-file-input', fixturePath('vrma', 'idle_loop.vrma'));
    await waitForState(page, 'motionName', 'idle_loop');
    await hook(page, 'setPlaying', false);
    const before = readVrma(await motionBytes(page));
    const node = before.humanoid.boneToNode.leftUpperArm!;
    const id = `${node}/rotation`;
    const channel = findChannel(before, node, 'rotation')!;
    await pickBoneRow(page, node, 'leftUpperArm');

    // The ? overlay lists the command with its key.
    await page.keyboard.press('?');
    await expect.poll(() => page.locator('#shortcuts-overlay tr[data-command="view.curves"] kbd').first().textContent()).toBe('G');
    await page.keyboard.press('Escape');
    await page.focus('#dope-sheet');
    await page.keyboard.press('g');
    await expect.poll(() => cv<boolean>(page, 'visible')).toBe(true);
    expect(await page.locator('.dope-sheet').isHidden()).toBe(true);
    await drawn(page);
    expect(await cv(page, 'curveIds')).toEqual([{ id, kind: 'rotation', components: [0, 1, 2], keys: channel.times.length }]);

    // What the view shows is the core's continuous Euler series, in degrees.
    const series = rotationEulerSeries(before, channel);
    for (const k of [0, 50, 249]) for (let c = 0; c < 3; c++) expect(await cv<number>(page, 'keyValue', id, c, k)).toBeCloseTo((series[k * 3 + c] * 180) / Math.PI, 9);

    // The optimize section is open by default: the band and the keys it would drop are shown.
    await expect.poll(() => page.locator('#curve-band').textContent()).toMatch(/±/);
    expect(await cv<number>(page, 'droppedCount', id)).toBeGreaterThan(0);
    // Closed: no band.
    await closeOptimizeSection(page);
    await expect.poll(() => page.locator('#curve-band').textContent()).toBe('');
    // Curves are drawn: plenty of pixels in each axis colour.
    await expect.poll(async () => Math.min(...Object.values(await curvePixels(page)))).toBeGreaterThan(300);

    // Zoom in (Ctrl+wheel over the plot) until keys are 20 px apart, then drag key k up by 40 pixels.
    const box = (await page.locator('#curve-view').boundingBox())!;
    const k = 60;
    const comp = 2;
    for (let i = 0; i < 10; i++) {
      const a = (await cv<Pt>(page, 'keyClientPoint', id, comp, k)).x;
      const b = (await cv<Pt>(page, 'keyClientPoint', id, comp, k + 1)).x;
      if (b - a >= 20) break;
      await page.mouse.move(a, box.y + box.height / 2);
      await page.keyboard.down('Control');
      await page.mouse.wheel(0, -500);
      // The wheel is handled when the keys moved apart (Playwright does not wait for it).
      await expect.poll(async () => (await cv<Pt>(page, 'keyClientPoint', id, comp, k + 1)).x - (await cv<Pt>(page, 'keyClientPoint', id, comp, k)).x).toBeGreaterThan(b - a);
      await page.keyboard.up('Control');
      await drawn(page);
    }
    const p = (await cv<Pt>(page, 'keyClientPoint', id, comp, k))!;
    const q = (await cv<Pt>(page, 'keyClientPoint', id, comp, k + 1))!;
    expect(q.x - p.x).toBeGreaterThanOrEqual(20);
    expect(p.y).toBeGreaterThan(box.y + 60); // room to drag up inside the plot
    const upp = await cv<number>(page, 'unitsPerPixel');
    const shown0 = (await cv<number>(page, 'keyValue', id, comp, k))!;
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(p.x, p.y - 20, { steps: 4 });
    await page.mouse.move(p.x, p.y - 40, { steps: 4 });
    await page.mouse.up();
    await drawn(page);
    const edit = await cv<Hooked['lastEdit']>(page, 'lastEdit');
    expect(edit).toHaveLength(1);
    expect(edit[0].component).toBe(comp);
    expect(edit[0].selection).toEqual([{ node, path: 'rotation', keys: [k] }]);
    // 40 pixels up in degrees (to a hundredth of a pixel), as radians for the edit.
    expect(Math.abs(edit[0].delta - (40 * upp * Math.PI) / 180)).toBeLessThan((0.01 * upp * Math.PI) / 180);
    const exported = await motionBytes(page);
    const expected = writeVrma(moveKeyValues(before, edit[0].selection, comp, edit[0].delta));
    expect(Buffer.from(exported).equals(Buffer.from(expected))).toBe(true);
    // The file's key is the dragged angle: read back, its Euler Z moved by the delta, X and Y stayed (1e-6 rad; float32 keys).
    const after = readVrma(exported);
    const s1 = rotationEulerSeries(after, findChannel(after, node, 'rotation')!);
    expect(Math.abs(s1[k * 3 + 2] - series[k * 3 + 2] - edit[0].delta)).toBeLessThan(1e-6);
    expect(Math.abs(s1[k * 3] - series[k * 3])).toBeLessThan(1e-6);
    expect(Math.abs(s1[k * 3 + 1] - series[k * 3 + 1])).toBeLessThan(1e-6);
    // The bar reads the new value (degrees, 3 decimals) and the view shows it.
    const shown1 = (await cv<number>(page, 'keyValue', id, comp, k))!;
    expect(shown1 - shown0).toBeCloseTo(40 * upp, 2);
    const readout = await page.locator('#curve-readout').textContent();
    expect(readout).toContain('leftUpperArm');
    expect(Number(await page.locator('#curve-readout').getAttribute('data-value'))).toBeCloseTo(shown1, 9);
    expect(readout!.replace(/,/g, '')).toContain((Math.round(shown1 * 1000) / 1000).toString());
    // One undo step restores the bytes.
    await page.keyboard.press('Control+Z');
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(before)))).toBe(true);

    // Box-select keys k+1..k+3 of Z (and whatever else the box covers), Shift+click k+6 of Z, drag one of them down 30 px:
    // one undo step that equals the core's moveKeyValues applied per dragged component.
    const pts: Pt[] = [];
    for (const i of [k + 1, k + 2, k + 3]) pts.push((await cv<Pt>(page, 'keyClientPoint', id, comp, i))!);
    const bx0 = pts[0].x - 8, bx1 = pts[2].x + 8;
    const by0 = Math.min(...pts.map((p) => p.y)) - 8, by1 = Math.max(...pts.map((p) => p.y)) + 8;
    let inBox = 0;
    for (let c = 0; c < 3; c++) {
      for (let i = k - 2; i <= k + 6; i++) {
        const pt = (await cv<Pt>(page, 'keyClientPoint', id, c, i))!;
        if (pt.x >= bx0 && pt.x <= bx1 && pt.y >= by0 && pt.y <= by1) inBox++;
      }
    }
    expect(inBox).toBeGreaterThanOrEqual(3);
    await page.mouse.move(bx0, by0);
    await page.mouse.down();
    await page.mouse.move((bx0 + bx1) / 2, (by0 + by1) / 2, { steps: 3 });
    await page.mouse.move(bx1, by1, { steps: 3 });
    await page.mouse.up();
    await drawn(page);
    const selectedCount = () => page.evaluate(() => (window as unknown as { __curveView: { selections: { size: number }[] } }).__curveView.selections.reduce((n, s) => n + s.size, 0));
    expect(await selectedCount()).toBe(inBox);
    const extra = (await cv<Pt>(page, 'keyClientPoint', id, comp, k + 6))!;
    await page.keyboard.down('Shift');
    await page.mouse.click(extra.x, extra.y);
    await page.keyboard.up('Shift');
    expect(await selectedCount()).toBe(inBox + 1);
    await expect.poll(() => page.locator('#curve-readout').textContent()).toMatch(new RegExp(String(inBox + 1)));
    const grab = (await cv<Pt>(page, 'keyClientPoint', id, comp, k + 2))!;
    await page.mouse.move(grab.x, grab.y);
    await page.mouse.down();
    await page.mouse.move(grab.x, grab.y + 15, { steps: 3 });
    await page.mouse.move(grab.x, grab.y + 30, { steps: 3 });
    await page.mouse.up();
    await drawn(page);
    const edits = await cv<Hooked['lastEdit']>(page, 'lastEdit');
    expect(edits.reduce((n, e) => n + e.selection.reduce((m, x) => m + x.keys.length, 0), 0)).toBe(inBox + 1);
    for (const e of edits) expect(Math.abs(e.delta + (30 * upp * Math.PI) / 180)).toBeLessThan((0.01 * upp * Math.PI) / 180);
    let core = before;
    for (const e of edits) core = moveKeyValues(core, e.selection, e.component, e.delta);
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(core)))).toBe(true);
    await page.keyboard.press('Control+Z');
    expect(Buffer.from(await motionBytes(page)).equals(Buffer.from(writeVrma(before)))).toBe(true);

    // G again: back to the dope sheet, same time span.
    await page.focus('#curve-view');
    await page.keyboard.press('g');
    await expect.poll(() => page.locator('.dope-sheet').isVisible()).toBe(true);
    expect(await cv<boolean>(page, 'visible')).toBe(false);
  });

  it('a hips turn through ±180° is one continuous Euler curve (generated motion)', async () => {
    const page = s.page;
    const fps = 30;
    const n = 3 * fps + 1;
    const times = new Float32Array(n);
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      times[i] = i / fps;
      // 1.2 turns about X (the full-range Euler angle) with a small sway about Z.
      const q = mul(fromAxisAngle([1, 0, 0], (i / (n - 1)) * 2.4 * Math.PI - 0.3), fromAxisAngle([0, 0, 1], 0.2 * Math.sin(i / 7)));
      values.set(q, i * 4);
    }
    const file = join(dir, 'turning.vrma');
    writeFileSync(file, writeVrma(buildMotion({ rotations: { hips: { times, values } } })));
    await page.setInputFiles('#open-file-input', file);
    await waitForState(page, 'motionName', 'turning');
    await hook(page, 'setPlaying', false);
    const motion = readVrma(await motionBytes(page));
    const node = motion.humanoid.boneToNode.hips!;
    await page.locator('#dope-to-curves').waitFor();
    await pickBoneRow(page, node, 'hips');
    await page.click('#dope-to-curves');
    await expect.poll(() => cv<boolean>(page, 'visible')).toBe(true);
    await drawn(page);
    const id = `${node}/rotation`;
    const ids = await cv<{ id: string }[]>(page, 'curveIds');
    expect(ids.map((c) => c.id)).toEqual([id, `${node}/translation`].filter((x) => motion.channels.some((c) => `${c.node}/${c.path}` === x)));
    // X climbs 432° over the motion: no ±180° wrap between adjacent keys (each key is 4.8° apart).
    const step = (await cv<number>(page, 'largestStep', id))!;
    expect(step).toBeLessThan(10);
    const first = (await cv<number>(page, 'keyValue', id, 0, 0))!;
    const last = (await cv<number>(page, 'keyValue', id, 0, n - 1))!;
    expect(last - first).toBeCloseTo(432, 0);
    // Without the band (its dropped-key marks are red too), the red X curve itself is on the canvas.
    await closeOptimizeSection(page);
    await expect.poll(async () => (await curvePixels(page)).red).toBeGreaterThan(300);
    expect(s.errors).toEqual([]);
  });

  it("a track of 120,001 keys: its band is measured in the curve band worker and drops the keys the core's optimize drops", async () => {
    const page = s.page;
    // 2,000 s at 60 fps of one hips turn (over OFF_THREAD_BAND_KEYS = 100,000: curveBands.ts).
    const n = 120_001;
    const times = new Float32Array(n);
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) {
      times[i] = i / 60;
      values.set(fromAxisAngle([0, 1, 0], 0.6 * Math.sin(i / 90) + 0.2 * Math.sin(i / 13)), i * 4);
    }
    const file = join(dir, 'long_turn.vrma');
    writeFileSync(file, writeVrma(buildMotion({ rotations: { hips: { times, values } } })));
    await page.setInputFiles('#open-file-input', file);
    await waitForState(page, 'motionName', 'long_turn', 120_000);
    await hook(page, 'setPlaying', false);
    const motion = readVrma(await motionBytes(page));
    const node = motion.humanoid.boneToNode.hips!;
    const id = `${node}/rotation`;
    await page.evaluate(() => {
      (document.getElementById('edit-optimize')!.closest('details') as HTMLDetailsElement).open = true;
    });
    if (await cv<boolean>(page, 'visible')) await page.click('#curve-to-dope-sheet');
    await expect.poll(() => cv<boolean>(page, 'visible')).toBe(false);
    await pickBoneRow(page, node, 'hips');
    await page.click('#dope-to-curves');
    await expect.poll(() => cv<boolean>(page, 'visible')).toBe(true);
    await expect.poll(() => cv<number>(page, 'droppedCount', id), { timeout: 60_000 }).toBeGreaterThan(0);
    expect(page.workers().some((w) => w.url().includes('curveBandWorker'))).toBe(true);
    // The core's optimize at the panel's defaults on the same track, in Node. Chromium's and Node's V8
    // may round a trigonometric result differently in the last bit, so a key at the tolerance's edge
    // may go either way: equal within 0.1% of the keys.
    const kept = findChannel(runEdit(editById('optimize')!, { motion }, {}).motion, node, 'rotation')!.times.length;
    const dropped = await cv<number>(page, 'droppedCount', id);
    expect(Math.abs(dropped - (n - kept))).toBeLessThanOrEqual(n * 0.001);
    await expect.poll(() => page.locator('#curve-band').textContent()).toMatch(/±/);
    expect(s.errors).toEqual([]);
  }, 180_000);
});
