/**
 * The bedroom's clock: real seconds times a scale the test hook can raise, so a sleep cycle of
 * minutes runs in seconds in a test while the page draws as usual.
 */
export class SimClock {
  private time = 0;
  private lastReal = performance.now() / 1000;
  /** How many simulated seconds pass per real second. */
  scale = 1;

  /** The simulated time now (seconds). */
  now(): number {
    const real = performance.now() / 1000;
    this.time += (real - this.lastReal) * this.scale;
    this.lastReal = real;
    return this.time;
  }

  /** From now on `k` simulated seconds per real one (the time so far counted at the old rate). */
  setScale(k: number): void {
    this.now();
    this.scale = k;
  }
}
