/**
 * The preview's own clock: the mixer never advances time itself (action paused, time set), so
 * scrubbing, frame steps and playback all go through one place and the pose shown is always
 * the pose at `time`.
 */
export class PreviewClock {
  time = 0;
  playing = false;
  loop = true;
  speed = 1;
  duration = 0;

  setDuration(duration: number): void {
    this.duration = Math.max(0, duration);
    this.time = this.clamp(this.time);
  }

  clamp(t: number): number {
    if (!Number.isFinite(t)) return 0;
    return Math.min(Math.max(t, 0), this.duration);
  }

  seek(t: number): void {
    this.time = this.clamp(t);
  }

  /** Advances by real seconds dt; returns true when the time changed. */
  advance(dt: number): boolean {
    if (!this.playing || this.duration <= 0) return false;
    const end = this.duration;
    let t = this.time + dt * this.speed;
    if (this.speed >= 0 ? t > end : t < 0) {
      if (this.loop) {
        t = ((t % end) + end) % end;
      } else {
        t = this.speed >= 0 ? end : 0;
        this.playing = false;
      }
    }
    this.time = this.clamp(t);
    return true;
  }

  /** Moves by whole frames at the given rate, snapping to the frame grid. */
  step(frames: number, fps: number): void {
    const f = Math.round(this.time * fps) + frames;
    this.seek(f / fps);
  }
}
