/** Render on demand: frames only after a request, coalesced, and continuing only while the draw says so. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RenderScheduler } from '../../../renderer/viewport/renderScheduler';

let queue: ((t: number) => void)[] = [];
let now = 0;
/** Runs one animation frame 16 ms after the previous one; returns how many callbacks ran. */
function tick(): number {
  now += 16;
  const run = queue;
  queue = [];
  run.forEach((cb) => cb(now));
  return run.length;
}

beforeEach(() => {
  queue = [];
  now = 1000;
  (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame = (cb: (t: number) => void) => queue.push(cb);
  (globalThis as { cancelAnimationFrame?: unknown }).cancelAnimationFrame = () => (queue = []);
});
afterEach(() => {
  delete (globalThis as { requestAnimationFrame?: unknown }).requestAnimationFrame;
  delete (globalThis as { cancelAnimationFrame?: unknown }).cancelAnimationFrame;
});

describe('RenderScheduler', () => {
  it('draws once after start, then nothing until asked', () => {
    const dts: number[] = [];
    const s = new RenderScheduler((dt) => (dts.push(dt), false));
    s.start();
    expect(tick()).toBe(1);
    for (let i = 0; i < 10; i++) tick();
    expect(dts).toEqual([0]);
    // Three requests in one frame: one draw.
    s.requestRender();
    s.requestRender();
    s.requestRender();
    tick();
    tick();
    expect(dts.length).toBe(2);
  });

  it('keeps drawing while the draw function animates, with real frame steps, and stops after', () => {
    const dts: number[] = [];
    let animate = 3;
    const s = new RenderScheduler((dt) => (dts.push(dt), --animate > 0));
    s.start();
    for (let i = 0; i < 10; i++) tick();
    // First frame after idle advances by 0, the following ones by the 16 ms between frames.
    expect(dts.map((d) => Math.round(d * 1000))).toEqual([0, 16, 16]);
  });

  it('draws nothing while stopped, even when asked', () => {
    let draws = 0;
    const s = new RenderScheduler(() => (draws++, true));
    s.requestRender();
    tick();
    expect(draws).toBe(0);
    s.start();
    tick();
    tick();
    expect(draws).toBe(2);
    s.stop();
    s.requestRender();
    tick();
    expect(draws).toBe(2);
    expect(s.isRunning).toBe(false);
  });
});
