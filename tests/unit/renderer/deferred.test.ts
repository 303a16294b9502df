/**
 * When views catch up (renderer/ui/deferred.ts): afterTask runs a view's sync once after the current
 * task however many seeks asked (the expression sliders' DOM writes had been half of posing a frame);
 * afterNextFrame runs once after the next animation frame (the frame with the edited pose goes out
 * first), or after 200 ms when no frame comes (a hidden window). The animation frames here are a
 * queue the test runs by hand, as the browser runs its frame callbacks.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextFrame, afterTask } from '../../../renderer/ui/deferred';

describe('afterTask', () => {
  it('200 calls in one task run it once, after the task, with the state the last call left', async () => {
    const seen: number[] = [];
    let time = 0;
    const sync = afterTask(() => seen.push(time));
    for (let i = 1; i <= 200; i++) {
      time = i;
      sync();
    }
    expect(seen).toEqual([]);
    await Promise.resolve();
    expect(seen).toEqual([200]);
    // A later task asks again: it runs again.
    time = 7;
    sync();
    await Promise.resolve();
    expect(seen).toEqual([200, 7]);
  });
});

describe('afterNextFrame', () => {
  const frames: (() => void)[] = [];
  const g = globalThis as { requestAnimationFrame?: (cb: () => void) => number };
  const had = g.requestAnimationFrame;
  afterEach(() => {
    vi.useRealTimers();
    frames.length = 0;
    g.requestAnimationFrame = had;
  });
  /** The browser's frame: every callback queued before it runs, in order. */
  const drawFrame = () => frames.splice(0).forEach((cb) => cb());

  it('runs once after the next frame, not in it, however often asked before', () => {
    vi.useFakeTimers();
    g.requestAnimationFrame = (cb) => frames.push(cb);
    const log: string[] = [];
    const redraw = afterNextFrame(() => log.push('panel'));
    redraw();
    redraw();
    frames.push(() => log.push('viewport'));
    redraw();
    expect(frames.length).toBe(2);
    drawFrame();
    expect(log).toEqual(['viewport']);
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['viewport', 'panel']);
    // The fallback timer was cleared: nothing runs a second time.
    vi.advanceTimersByTime(1000);
    expect(log).toEqual(['viewport', 'panel']);
    redraw();
    drawFrame();
    vi.advanceTimersByTime(0);
    expect(log).toEqual(['viewport', 'panel', 'panel']);
  });

  it('without frames (a hidden window) runs after 200 ms, once', () => {
    vi.useFakeTimers();
    g.requestAnimationFrame = (cb) => frames.push(cb);
    let runs = 0;
    const redraw = afterNextFrame(() => runs++);
    redraw();
    vi.advanceTimersByTime(199);
    expect(runs).toBe(0);
    vi.advanceTimersByTime(1);
    expect(runs).toBe(1);
    // The frame that comes late does not run it again.
    drawFrame();
    vi.advanceTimersByTime(0);
    expect(runs).toBe(1);
  });
});
