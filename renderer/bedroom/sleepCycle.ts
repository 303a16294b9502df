/**
 * The bedroom's timing as a small state machine on an injectable clock, so tests drive it with a
 * simulated one. Two linear progresses move at constant rates and are eased on output:
 * lying down (e: 0 standing .. 1 lying) and the side share (lb: 0 back .. 1 side).
 */
import { easeInOut } from './easing';
import type { LyingPose } from './settings';

export const LIE_DOWN_SEC = 3;
export const TURN_SEC = 3.5;

export interface SleepCycleOptions {
  /** Seconds, monotonic (performance.now() / 1000 in the page, a variable in tests). */
  readonly now: () => number;
  readonly pose: LyingPose;
  readonly autoTurn: boolean;
  readonly autoSec: number;
}

export interface SleepState {
  /** Eased progress of lying down. */
  readonly e: number;
  /** Eased share of the side pose. */
  readonly lb: number;
  /** The pose being turned to (or held). */
  readonly pose: LyingPose;
  readonly sleeping: boolean;
  readonly fullyAsleep: boolean;
  /** Seconds until the next automatic turn-over, or null when none is due (awake, or auto off). */
  readonly nextTurnIn: number | null;
}

function approach(value: number, target: number, step: number): number {
  // Snap within rounding so a step computed as "the rest of the way" really arrives.
  if (Math.abs(target - value) <= step + 1e-12) return target;
  return value < target ? value + step : value - step;
}

export class SleepCycle {
  private readonly now: () => number;
  private last: number;
  private lie = 0;
  private turn: number;
  private target: LyingPose;
  private sleeping = false;
  private autoTurn: boolean;
  private autoSec: number;
  /** Seconds spent fully asleep since the last turn-over (automatic or chosen). */
  private sinceTurn = 0;

  constructor(options: SleepCycleOptions) {
    this.now = options.now;
    this.last = options.now();
    this.target = options.pose;
    this.turn = options.pose === 'side' ? 1 : 0;
    this.autoTurn = options.autoTurn;
    this.autoSec = options.autoSec;
  }

  sleep(): void {
    this.advance();
    if (!this.sleeping) this.sinceTurn = 0;
    this.sleeping = true;
  }

  wake(): void {
    this.advance();
    this.sleeping = false;
  }

  /** A pose chosen by hand: turn to it and restart the turn-over timer. */
  choosePose(pose: LyingPose): void {
    this.advance();
    this.target = pose;
    this.sinceTurn = 0;
  }

  turnOver(): void {
    this.choosePose(this.target === 'back' ? 'side' : 'back');
  }

  setAutoTurn(on: boolean): void {
    this.advance();
    this.autoTurn = on;
    this.sinceTurn = 0;
  }

  setAutoSec(sec: number): void {
    this.advance();
    this.autoSec = sec;
  }

  /** Advance to the clock's present and return the state. */
  tick(): SleepState {
    this.advance();
    const fullyAsleep = this.sleeping && this.lie >= 1;
    return {
      e: easeInOut(this.lie),
      lb: easeInOut(this.turn),
      pose: this.target,
      sleeping: this.sleeping,
      fullyAsleep,
      nextTurnIn: fullyAsleep && this.autoTurn ? Math.max(0, this.autoSec - this.sinceTurn) : null,
    };
  }

  private advance(): void {
    const t = this.now();
    let dt = t - this.last;
    this.last = t;
    if (!(dt > 0)) return;
    // Step through the interval (each step ends at the next event: fully lain down, or a turn-over due)
    // so a long frame (a hidden tab) still turns over at the right moments. A zero step only happens
    // when a turn-over is due, which resets the timer, so the loop always ends.
    while (dt > 0) {
      const fullyAsleep = this.sleeping && this.lie >= 1;
      let step = dt;
      if (!fullyAsleep) {
        const lieTarget = this.sleeping ? 1 : 0;
        const toLie = Math.abs(lieTarget - this.lie) * LIE_DOWN_SEC;
        if (toLie > 0) step = Math.min(step, toLie);
      } else if (this.autoTurn) {
        step = Math.min(step, Math.max(0, this.autoSec - this.sinceTurn));
      }
      this.lie = approach(this.lie, this.sleeping ? 1 : 0, step / LIE_DOWN_SEC);
      this.turn = approach(this.turn, this.target === 'side' ? 1 : 0, step / TURN_SEC);
      if (fullyAsleep) this.sinceTurn += step;
      dt -= step;
      if (fullyAsleep && this.autoTurn && this.sinceTurn >= this.autoSec - 1e-9) {
        this.target = this.target === 'back' ? 'side' : 'back';
        this.sinceTurn = 0;
      }
    }
  }
}
