/**
 * The bedroom's timing as a small state machine on an injectable clock, so tests drive it with a
 * simulated one. Two linear progresses move at constant rates and are eased on output:
 * lying down (e: 0 standing .. 1 lying) and the side share (lb: 0 back .. 1 on a side). Which side
 * `lb` turns onto is `side`; a turn from one side to the other goes through the back.
 */
import type { LyingPose, TurnSides } from '../../shared/contract/bedroomSettings';
import { easeInOut } from './easing';

export const LIE_DOWN_SEC = 3;
export const TURN_SEC = 3.5;

export type Side = 'right' | 'left';

/** What the status line says: one phase at a time, straight from the progresses. */
export type SleepPhase = 'awake' | 'lyingDown' | 'asleep' | 'turningOver' | 'gettingUp';

export interface SleepCycleOptions {
  /** Seconds, monotonic (performance.now() / 1000 in the page, a variable in tests). */
  readonly now: () => number;
  readonly pose: LyingPose;
  readonly autoTurn: boolean;
  readonly autoSec: number;
  readonly sides?: TurnSides;
}

/** The cycle's whole inner state, so a bedroom mounted again carries on where the last one was. */
export interface SleepSnapshot {
  readonly lie: number;
  readonly turn: number;
  readonly side: Side;
  readonly target: LyingPose;
  readonly sleeping: boolean;
  readonly lastSide: Side;
  readonly sinceTurn: number;
}

export interface SleepState {
  /** Eased progress of lying down. */
  readonly e: number;
  /** Eased share of the side pose (which side: `side`). */
  readonly lb: number;
  readonly side: Side;
  /** The pose being turned to (or held). */
  readonly pose: LyingPose;
  readonly sleeping: boolean;
  readonly fullyAsleep: boolean;
  readonly phase: SleepPhase;
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
  private side: Side;
  private target: LyingPose;
  private sleeping = false;
  private autoTurn: boolean;
  private autoSec: number;
  private sides: TurnSides;
  /** The side the last automatic turn went to, so `both` alternates right and left. */
  private lastSide: Side;
  /** Seconds spent fully asleep since the last turn-over (automatic or chosen). */
  private sinceTurn = 0;

  constructor(options: SleepCycleOptions) {
    this.now = options.now;
    this.last = options.now();
    this.sides = options.sides ?? 'right';
    this.target = this.sides === 'right' && options.pose === 'left' ? 'right' : options.pose;
    this.turn = this.target === 'back' ? 0 : 1;
    this.side = this.target === 'left' ? 'left' : 'right';
    // Starting on the back, the first turn goes to the right side.
    this.lastSide = this.target === 'back' ? 'left' : this.side;
    this.autoTurn = options.autoTurn;
    this.autoSec = options.autoSec;
  }

  snapshot(): SleepSnapshot {
    this.advance();
    return { lie: this.lie, turn: this.turn, side: this.side, target: this.target, sleeping: this.sleeping, lastSide: this.lastSide, sinceTurn: this.sinceTurn };
  }

  /** Carry on from a snapshot (the clock's present is its moment); the sides setting stays this cycle's. */
  restore(s: SleepSnapshot): void {
    this.advance();
    const unit = (v: number) => (Number.isFinite(v) ? Math.min(1, Math.max(0, v)) : 0);
    this.lie = unit(s.lie);
    this.turn = unit(s.turn);
    this.side = s.side === 'left' && this.sides === 'both' ? 'left' : 'right';
    this.target = this.sides === 'right' && s.target === 'left' ? 'right' : s.target;
    this.sleeping = s.sleeping;
    this.lastSide = s.lastSide === 'left' ? 'left' : 'right';
    this.sinceTurn = Number.isFinite(s.sinceTurn) ? Math.max(0, s.sinceTurn) : 0;
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
    this.target = this.sides === 'right' && pose === 'left' ? 'right' : pose;
    if (this.target !== 'back') this.lastSide = this.target;
    this.sinceTurn = 0;
  }

  /** The next pose of the cycle (back -> right -> back -> left with both sides). */
  nextPose(): LyingPose {
    if (this.target !== 'back') return 'back';
    return this.sides === 'both' && this.lastSide === 'right' ? 'left' : 'right';
  }

  /** Turn over to the next pose of the cycle; refused (false) unless asleep. */
  turnOver(): boolean {
    this.advance();
    if (!this.sleeping) return false;
    this.choosePose(this.nextPose());
    return true;
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

  setSides(sides: TurnSides): void {
    this.advance();
    this.sides = sides;
    if (sides === 'right') {
      this.lastSide = 'left';
      if (this.target === 'left') this.target = 'right';
    }
  }

  /** Advance to the clock's present and return the state. */
  tick(): SleepState {
    this.advance();
    const fullyAsleep = this.sleeping && this.lie >= 1;
    const turnTarget = this.target === 'back' ? 0 : 1;
    const turning = this.turn !== turnTarget || (this.target !== 'back' && this.target !== this.side);
    let phase: SleepPhase;
    if (!this.sleeping) phase = this.lie > 0 ? 'gettingUp' : 'awake';
    else if (this.lie < 1) phase = 'lyingDown';
    else phase = turning ? 'turningOver' : 'asleep';
    return {
      e: easeInOut(this.lie),
      lb: easeInOut(this.turn),
      side: this.side,
      pose: this.target,
      sleeping: this.sleeping,
      fullyAsleep,
      phase,
      nextTurnIn: fullyAsleep && this.autoTurn ? Math.max(0, this.autoSec - this.sinceTurn) : null,
    };
  }

  private advance(): void {
    const t = this.now();
    let dt = t - this.last;
    this.last = t;
    if (!(dt > 0)) return;
    // Step through the interval (each step ends at the next event: fully lain down, on the back
    // between two sides, or a turn-over due) so a long frame (a hidden tab) still turns over at the
    // right moments. A zero step only happens at such an event, which changes the state, so the loop ends.
    while (dt > 0) {
      const fullyAsleep = this.sleeping && this.lie >= 1;
      // Onto the other side: down to the back first, then the side switches.
      const crossing = this.target !== 'back' && this.target !== this.side;
      if (crossing && this.turn <= 0) this.side = this.target as Side;
      const turnTarget = this.target === 'back' || this.target !== this.side ? 0 : 1;
      let step = dt;
      if (!fullyAsleep) {
        const lieTarget = this.sleeping ? 1 : 0;
        const toLie = Math.abs(lieTarget - this.lie) * LIE_DOWN_SEC;
        if (toLie > 0) step = Math.min(step, toLie);
      } else if (this.autoTurn) {
        step = Math.min(step, Math.max(0, this.autoSec - this.sinceTurn));
      }
      if (this.target !== this.side && this.target !== 'back' && this.turn > 0) step = Math.min(step, this.turn * TURN_SEC);
      this.lie = approach(this.lie, this.sleeping ? 1 : 0, step / LIE_DOWN_SEC);
      this.turn = approach(this.turn, turnTarget, step / TURN_SEC);
      if (fullyAsleep) this.sinceTurn += step;
      dt -= step;
      if (fullyAsleep && this.autoTurn && this.sinceTurn >= this.autoSec - 1e-9) {
        const next = this.nextPose();
        this.target = next;
        if (next !== 'back') this.lastSide = next;
        this.sinceTurn = 0;
      }
    }
    if (this.target !== 'back' && this.target !== this.side && this.turn <= 0) this.side = this.target as Side;
  }
}
