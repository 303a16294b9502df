/**
 * Render on demand: nothing is drawn while nothing changes (an idle studio must not burn a core).
 * Whoever changes what a canvas shows calls requestRender(); the scheduler draws once in the next
 * animation frame. The draw function answers whether it is still animating (playback, a settling
 * spring, a breathing avatar); while it says yes, frames keep coming, and when it says no the loop
 * stops until the next request. Many requests within one frame cost one draw.
 *
 *   const frames = new RenderScheduler((dt) => { update(dt); renderer.render(scene, camera); return playing; });
 *   frames.start();
 *   controls.addEventListener('change', () => frames.requestRender());
 */
export type DrawFunction = (dt: number) => boolean;

/** Longest step handed to the draw function (a hidden tab or a long task is not replayed). */
const MAX_DT_S = 0.25;

export class RenderScheduler {
  private running = false;
  private rafId = 0;
  private pending = false;
  /** requestAnimationFrame time of the previous drawn frame when the loop was continuous, else null. */
  private lastAt: number | null = null;

  constructor(private readonly draw: DrawFunction) {}

  /** Starts drawing on demand (one frame is drawn right away). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.lastAt = null;
    this.requestRender();
  }

  /** No more frames until start() (a hidden scene). */
  stop(): void {
    this.running = false;
    this.pending = false;
    this.lastAt = null;
    cancelAnimationFrame(this.rafId);
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Something visible changed: draw in the next animation frame (coalesced). */
  requestRender(): void {
    if (!this.running || this.pending) return;
    this.pending = true;
    this.rafId = requestAnimationFrame((now) => this.frame(now));
  }

  private frame(now: number): void {
    this.pending = false;
    if (!this.running) return;
    // After an idle gap the first frame advances by nothing: time only runs while frames run.
    const dt = this.lastAt === null ? 0 : Math.min(Math.max(0, (now - this.lastAt) / 1000), MAX_DT_S);
    const again = this.draw(dt);
    if (again) {
      this.lastAt = now;
      this.requestRender();
    } else this.lastAt = null;
  }
}
