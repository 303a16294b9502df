/**
 * A bedroom mounted again carries on from the last one's cycle (issue 28: "switching to Studio and
 * back wakes the avatar"): a snapshot taken asleep on the right side, mid-turn, or mid-lie-down, restored
 * into a fresh cycle on another clock, gives the same state and carries on at the same rates.
 */
import { describe, expect, it } from 'vitest';
import { LIE_DOWN_SEC, SleepCycle, TURN_SEC } from '../../../renderer/bedroom/sleepCycle';

const fresh = (clock: { t: number }) => new SleepCycle({ now: () => clock.t, pose: 'back', autoTurn: true, autoSec: 60, sides: 'both' });

describe('sleep cycle snapshot and restore', () => {
  it('asleep on the right side stays asleep there, with the turn-over timer where it was', () => {
    const a = { t: 0 };
    const c = fresh(a);
    c.sleep();
    a.t += LIE_DOWN_SEC + 1;
    c.choosePose('right');
    a.t += TURN_SEC + 10;
    const before = c.tick();
    expect(before).toMatchObject({ phase: 'asleep', pose: 'right', fullyAsleep: true, lb: 1 });
    const b = { t: 1000 };
    const d = fresh(b);
    expect(d.tick().phase).toBe('awake');
    d.restore(c.snapshot());
    expect(d.tick()).toEqual(before);
    // The timer carries on: 46.5 s left of 60 (it ran through the turn), due then and not 60 s later.
    expect(before.nextTurnIn).toBeCloseTo(46.5, 9);
    b.t += 46.4;
    expect(d.tick().pose).toBe('right');
    b.t += 0.2;
    expect(d.tick().pose).toBe('back');
  });

  it('a lie-down half done carries on from half way', () => {
    const a = { t: 0 };
    const c = fresh(a);
    c.sleep();
    a.t += LIE_DOWN_SEC / 2;
    const b = { t: 5 };
    const d = fresh(b);
    d.restore(c.snapshot());
    expect(d.tick().phase).toBe('lyingDown');
    expect(d.tick().e).toBeCloseTo(c.tick().e, 12);
    b.t += LIE_DOWN_SEC / 2;
    expect(d.tick().fullyAsleep).toBe(true);
  });

  it('a snapshot of nonsense is clamped, and a left side needs both sides on', () => {
    const b = { t: 0 };
    const d = new SleepCycle({ now: () => b.t, pose: 'back', autoTurn: false, autoSec: 60, sides: 'right' });
    d.restore({ lie: Number.NaN, turn: 7, side: 'left', target: 'left', sleeping: true, lastSide: 'left', sinceTurn: -3 });
    const s = d.tick();
    expect(s.e).toBe(0);
    expect(s.lb).toBe(1);
    expect(s.side).toBe('right');
    expect(s.pose).toBe('right');
  });
});
