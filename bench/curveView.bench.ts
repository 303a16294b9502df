/**
 * The curve view on the 10-minute 60 fps motion (testkit/longMotion.ts): one bone's rotation track of
 * 36,001 keys as three Euler curves, in Chromium. The main-thread time of the static layer's redraw
 * (drawIfNeeded, canvas commands recorded; and with the canvas made to rasterise them, a 1-pixel
 * getImageData) while zooming around the whole motion and panning a 10 s and a 1 s view, aim < 8 ms;
 * with the optimizer's band and without.
 * Peer, in the same page and run: the same three curves drawn naively, one lineTo per key on the
 * same canvas, without decimation; the ratio is ours / peer. Also the band's first computation (the
 * optimize edit on the track) and what one value drag of a key costs (moveKeyValues) in Node.
 * BENCH_FILTER=curveView node --import tsx bench/run.ts (needs `npx electron-vite build` first).
 */
import { HAS_CHROMIUM, NO_CHROMIUM_REASON } from '../testkit/browser';
import { openMotionFile, withMotionFile, withStudioPage } from '../testkit/studioPage';
import { moveKeyValues } from '../shared/edits/moveKeyValues';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable, timeIt } from './timing';

const BONE = 'leftUpperArm';

export async function run(): Promise<void> {
  const motion = makeLongMotion();
  const rows: string[][] = [];
  const node = motion.humanoid.boneToNode[BONE]!;
  const drag = await timeIt('drag', () => moveKeyValues(motion, [{ node, path: 'rotation', keys: [18000] }], 2, 0.1), { minRuns: 10, minMs: 500 });
  rows.push([`value drag of one key on a 36,001-key track (moveKeyValues, Node)`, `${drag.ms.toFixed(2)} ms`, '', `${drag.runs} runs`]);
  const many = Array.from({ length: 5000 }, (_, i) => 1000 + i);
  const dragMany = await timeIt('drag many', () => moveKeyValues(motion, [{ node, path: 'rotation', keys: many }], 2, 0.1), { minRuns: 10, minMs: 500 });
  rows.push([`value drag of 5,000 keys of that track (one edit)`, `${dragMany.ms.toFixed(2)} ms`, '< 100 ms', `${dragMany.runs} runs`]);
  if (!HAS_CHROMIUM) {
    printTable('curve view (10-minute 60 fps motion)', ['what', 'median', 'aim', 'note'], rows);
    console.log(`curve view drawing skipped: ${NO_CHROMIUM_REASON}`);
    return;
  }
  await withMotionFile(motion, 'long-600s-60fps', (longPath) =>
    withStudioPage(async (page) => {
      await page.waitForFunction(() => !!(window as unknown as { __curveView?: unknown }).__curveView, undefined, { timeout: 60_000 });
      await openMotionFile(page, longPath, 'long-600s-60fps');
      await page.evaluate((bone) => {
        const s = (window as unknown as { __studio: { setPlaying(p: boolean): void; select(b: string): void } }).__studio;
        s.setPlaying(false);
        s.select(bone);
      }, BONE);
      await page.click('#dope-to-curves');
      await page.waitForFunction(() => (window as unknown as { __curveView: { visible: boolean } }).__curveView.visible);
      await page.waitForTimeout(500);
      // tsx keeps function names with a __name helper the page does not have.
      await page.evaluate('globalThis.__name = (f) => f');
      const figures = await page.evaluate((id) => {
        type View = {
          time: { start: number; end: number; width: number };
          values: { min: number; max: number };
          invalidate(): void;
          drawIfNeeded(): void;
          fit(): void;
          lastDrawMs: number;
          canvas: HTMLCanvasElement;
          curve(id: string): { channel: { times: Float32Array }; values: Float64Array; components: number[] };
          canvasPoint(t: number, v: number): [number, number];
          droppedCount(id: string): number;
        };
        const view = (window as unknown as { __curveView: View }).__curveView;
        const section = document.getElementById('edit-optimize')!.closest('details') as HTMLDetailsElement;
        const curve = view.curve(id);
        const colors = ['#e8575a', '#6fcf5b', '#5a8ff0'];
        /** The peer: every key a lineTo, the same three curves on the same canvas. */
        const ctx2d = view.canvas.getContext('2d')!;
        let naiveMs = 0;
        const naive = () => {
          const ctx = ctx2d;
          const t0 = performance.now();
          ctx.fillStyle = '#15181d';
          ctx.fillRect(0, 0, view.canvas.width, view.canvas.height);
          const times = curve.channel.times;
          for (const c of curve.components) {
            ctx.beginPath();
            for (let k = 0; k < times.length; k++) {
              const [x, y] = view.canvasPoint(times[k], curve.values[k * 3 + c]);
              if (k === 0) ctx.moveTo(x, y);
              else ctx.lineTo(x, y);
            }
            ctx.strokeStyle = colors[c];
            ctx.lineWidth = 1.25;
            ctx.stroke();
          }
          naiveMs = performance.now() - t0;
        };
        const setSpan = (span: number, i: number) => {
          if (span === 600) {
            view.fit();
            const f = 1 + (i % 10) / 20;
            const w = 600 / f;
            view.time = { ...view.time, start: 300 - w / 2, end: 300 + w / 2 };
          } else {
            const start = 100 + (i * span) / 30;
            view.time = { ...view.time, start, end: start + span };
          }
        };
        const out: Record<string, number[]> = {};
        // The band's first computation: the optimize edit on the 36,001-key track (then cached).
        section.open = true;
        view.fit();
        view.invalidate();
        view.drawIfNeeded();
        out.bandFirst = [view.lastDrawMs];
        out.dropped = [view.droppedCount(id)];
        for (const band of [false, true]) {
          section.open = band;
          for (const span of [600, 10, 1]) {
            const ours: number[] = [];
            const peer: number[] = [];
            const raster: number[] = [];
            const peerRaster: number[] = [];
            for (let i = 0; i < 60; i++) {
              setSpan(span, i);
              view.invalidate();
              const t0 = performance.now();
              view.drawIfNeeded();
              // Reading one pixel makes the canvas rasterise what was recorded: the frame's whole main-thread cost.
              ctx2d.getImageData(0, 0, 1, 1);
              raster.push(performance.now() - t0);
              ours.push(view.lastDrawMs);
              if (!band) {
                const t1 = performance.now();
                naive();
                ctx2d.getImageData(0, 0, 1, 1);
                peerRaster.push(performance.now() - t1);
                peer.push(naiveMs);
              }
            }
            out[`${band ? 'band' : 'plain'} ${span}`] = ours.sort((a, b) => a - b);
            out[`${band ? 'band' : 'plain'} ${span} raster`] = raster.sort((a, b) => a - b);
            if (!band) out[`peer ${span} raster`] = peerRaster.sort((a, b) => a - b);
            if (!band) out[`peer ${span}`] = peer.sort((a, b) => a - b);
          }
        }
        view.invalidate();
        return out;
      }, `${node}/rotation`);
      const med = (s: number[]) => s[s.length >> 1];
      const p95 = (s: number[]) => s[Math.floor(s.length * 0.95)];
      rows.push([`band first computed (optimize edit on the track, in the draw)`, `${figures.bandFirst[0].toFixed(1)} ms`, '', `${figures.dropped[0]} of 36,001 keys would be dropped`]);
      for (const span of ['600', '10', '1']) {
        const what = span === '600' ? 'zooming around the whole motion' : `panning a ${span} s view`;
        const ours = figures[`plain ${span}`];
        const peer = figures[`peer ${span}`];
        const band = figures[`band ${span}`];
        const raster = figures[`plain ${span} raster`];
        const peerRaster = figures[`peer ${span} raster`];
        const bandRaster = figures[`band ${span} raster`];
        rows.push([
          `curve view redraw, 3 curves x 36,001 keys, ${what}`,
          `${med(ours).toFixed(2)} ms`,
          '< 8 ms',
          `p95 ${p95(ours).toFixed(2)} ms; peer (lineTo per key) ${med(peer).toFixed(2)} ms, ratio ${(med(ours) / med(peer)).toFixed(2)}`,
        ]);
        rows.push([
          `  with rasterising (draw + 1-pixel read)`,
          `${med(raster).toFixed(2)} ms`,
          '< 8 ms',
          `p95 ${p95(raster).toFixed(2)} ms; peer ${med(peerRaster).toFixed(2)} ms, ratio ${(med(raster) / med(peerRaster)).toFixed(2)}`,
        ]);
        rows.push([
          `  with the optimizer's band`,
          `${med(band).toFixed(2)} ms`,
          '< 8 ms',
          `p95 ${p95(band).toFixed(2)} ms; rasterised ${med(bandRaster).toFixed(2)} ms, p95 ${p95(bandRaster).toFixed(2)} ms`,
        ]);
      }
    }));
  printTable('curve view (10-minute 60 fps motion, one 36,001-key rotation track)', ['what', 'median', 'aim', 'note'], rows);
}
