import { describe, expect, it } from 'vitest';
import { LIE_DOWN_SEC, SleepCycle, TURN_SEC } from '../../../renderer/bedroom/sleepCycle';

function simulated(start = 100) {
  let t = start;
  return { now: () => t, advance: (dt: number) => (t += dt), set: (v: number) => (t = v) };
}

/** Run the cycle frame by frame (60 fps) for `sec`, returning every state. */
function run(cycle: SleepCycle, clock: ReturnType<typeof simulated>, sec: number, fps = 60) {
  const out = [];
  const n = Math.round(sec * fps);
  for (let i = 0; i < n; i++) {
    clock.advance(1 / fps);
    out.push(cycle.tick());
  }
  return out;
}

describe('sleep cycle (simulated clock)', () => {
  it('lies down with an eased progress and is fully asleep after the lie-down time', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: false, autoSec: 120 });
    c.sleep();
    clock.advance(LIE_DOWN_SEC / 2);
    const half = c.tick();
    expect(half.e).toBeCloseTo(0.5, 9); // smoothstep(0.5) = 0.5
    clock.advance(LIE_DOWN_SEC / 4);
    expect(c.tick().e).toBeCloseTo(0.84375, 9); // smoothstep(0.75)
    expect(c.tick().fullyAsleep).toBe(false);
    clock.advance(LIE_DOWN_SEC / 4);
    const s = c.tick();
    expect(s.e).toBe(1);
    expect(s.fullyAsleep).toBe(true);
    expect(s.lb).toBe(0);
  });

  it('turning over blends lb over 3.5 s at a constant rate with ease in and out', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: false, autoSec: 120 });
    c.sleep();
    clock.advance(LIE_DOWN_SEC);
    c.tick();
    c.choosePose('right');
    const states = run(c, clock, TURN_SEC, 100);
    const lbs = states.map((s) => s.lb);
    // Ease in and out: slow at both ends, fastest in the middle.
    expect(lbs[0]).toBeLessThan(0.001);
    expect(lbs[174] - lbs[173]).toBeGreaterThan(10 * (lbs[1] - lbs[0]));
    expect(lbs[349]).toBe(1); // reached exactly at 3.5 s
    expect(lbs[345]).toBeLessThan(1);
    for (let i = 1; i < lbs.length; i++) expect(lbs[i]).toBeGreaterThanOrEqual(lbs[i - 1]);
    // Constant rate underneath: lb is smoothstep of elapsed / 3.5 s at every frame.
    for (let i = 0; i < lbs.length; i++) {
      const u = Math.min(1, (i + 1) / 100 / TURN_SEC);
      expect(Math.abs(lbs[i] - u * u * (3 - 2 * u))).toBeLessThan(1e-9);
    }
  });

  it('turns over automatically every autoSec while fully asleep, and only then', () => {
    const clock = simulated();
    const autoSec = 20;
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: true, autoSec });
    // Awake: no turn-overs however long it waits.
    expect(run(c, clock, 60).every((s) => s.pose === 'back' && s.nextTurnIn === null)).toBe(true);
    c.sleep();
    const fps = 50;
    const states = run(c, clock, LIE_DOWN_SEC + 3 * autoSec + 1, fps);
    const switches: number[] = [];
    for (let i = 1; i < states.length; i++) if (states[i].pose !== states[i - 1].pose) switches.push((i + 1) / fps);
    // Counted from the moment the lie-down ends, one switch per autoSec.
    expect(switches).toHaveLength(3);
    switches.forEach((t, k) => expect(Math.abs(t - (LIE_DOWN_SEC + (k + 1) * autoSec))).toBeLessThanOrEqual(1 / fps + 1e-9));
    expect(states[Math.round((LIE_DOWN_SEC + autoSec + TURN_SEC + 0.1) * fps)].lb).toBe(1);
    expect(states[Math.round((LIE_DOWN_SEC + 2 * autoSec + TURN_SEC + 0.1) * fps)].lb).toBe(0);
  });

  it('a long frame (a hidden tab) still switches once per autoSec', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: true, autoSec: 30 });
    c.sleep();
    clock.advance(LIE_DOWN_SEC + 30 * 5 + 1); // five turn-overs in one jump: back -> side x5 -> side
    const s = c.tick();
    expect(s.pose).toBe('right');
    expect(s.nextTurnIn).toBeCloseTo(29, 6);
  });

  it('choosing a pose by hand restarts the timer', () => {
    const clock = simulated();
    const autoSec = 40;
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: true, autoSec });
    c.sleep();
    clock.advance(LIE_DOWN_SEC);
    c.tick();
    clock.advance(autoSec - 5);
    expect(c.tick().nextTurnIn).toBeCloseTo(5, 9);
    c.choosePose('back'); // same pose, by hand: still restarts the timer
    clock.advance(10); // the old timer would have switched 5 s ago
    let s = c.tick();
    expect(s.pose).toBe('back');
    expect(s.nextTurnIn).toBeCloseTo(autoSec - 10, 9);
    clock.advance(autoSec - 10 - 0.01);
    expect(c.tick().pose).toBe('back');
    clock.advance(0.02);
    s = c.tick();
    expect(s.pose).toBe('right');
    c.turnOver();
    expect(c.tick().pose).toBe('back');
    expect(c.tick().nextTurnIn).toBeCloseTo(autoSec, 9);
  });

  it('waking stands up again and stops the timer; auto off never switches', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'right', autoTurn: false, autoSec: 20 });
    expect(c.tick().lb).toBe(1);
    c.sleep();
    const asleep = run(c, clock, 200);
    expect(asleep.every((s) => s.pose === 'right')).toBe(true);
    c.wake();
    clock.advance(LIE_DOWN_SEC);
    const s = c.tick();
    expect(s.e).toBe(0);
    expect(s.sleeping).toBe(false);
    expect(s.nextTurnIn).toBeNull();
  });
});

describe('sleep cycle: both sides and the phases', () => {
  it('with both sides, turn-overs cycle back -> right -> back -> left -> back, each blend through the back', () => {
    const clock = simulated();
    const autoSec = 20;
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: true, autoSec, sides: 'both' });
    c.sleep();
    const fps = 50;
    const states = run(c, clock, LIE_DOWN_SEC + 4 * autoSec + 1, fps);
    const poses: string[] = [states[0].pose];
    for (const s of states) if (s.pose !== poses[poses.length - 1]) poses.push(s.pose);
    expect(poses).toEqual(['back', 'right', 'back', 'left', 'back']);
    // While on the left side, lb is the left side's share; it never jumps between frames.
    const onLeft = states[Math.round((LIE_DOWN_SEC + 3 * autoSec + TURN_SEC + 0.2) * fps)];
    expect(onLeft.side).toBe('left');
    expect(onLeft.lb).toBe(1);
    for (let i = 1; i < states.length; i++) expect(Math.abs(states[i].lb - states[i - 1].lb)).toBeLessThan(0.03);
  });

  it('a hand-chosen left while on the right goes through the back and arrives on the left', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'right', autoTurn: false, autoSec: 120, sides: 'both' });
    c.sleep();
    run(c, clock, LIE_DOWN_SEC + 0.1);
    c.choosePose('left');
    const states = run(c, clock, 2 * TURN_SEC + 0.2, 100);
    const firstLeft = states.findIndex((s) => s.side === 'left');
    expect(states[firstLeft - 1].lb).toBeGreaterThan(0);
    expect(states[firstLeft].lb).toBeLessThan(0.01);
    expect(states.at(-1)!.side).toBe('left');
    expect(states.at(-1)!.lb).toBe(1);
    const arrived = states.findIndex((s) => s.side === 'left' && s.lb === 1);
    expect(arrived / 100).toBeCloseTo(2 * TURN_SEC, 1);
    expect(states.slice(0, arrived).every((s) => s.phase === 'turningOver')).toBe(true);
    expect(states.slice(arrived).every((s) => s.phase === 'asleep')).toBe(true);
  });

  it('with the right side only, left is never chosen', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'left', autoTurn: false, autoSec: 120 });
    expect(c.tick().pose).toBe('right');
    c.choosePose('left');
    expect(c.tick().pose).toBe('right');
  });

  it('phases follow the state machine; turning over is refused while awake', () => {
    const clock = simulated();
    const c = new SleepCycle({ now: clock.now, pose: 'back', autoTurn: false, autoSec: 120 });
    expect(c.tick().phase).toBe('awake');
    expect(c.turnOver()).toBe(false);
    expect(c.tick().pose).toBe('back');
    c.sleep();
    clock.advance(0.1);
    expect(c.tick().phase).toBe('lyingDown');
    clock.advance(LIE_DOWN_SEC);
    expect(c.tick().phase).toBe('asleep');
    expect(c.turnOver()).toBe(true);
    clock.advance(0.1);
    expect(c.tick()).toMatchObject({ phase: 'turningOver', pose: 'right' });
    clock.advance(TURN_SEC);
    expect(c.tick()).toMatchObject({ phase: 'asleep', pose: 'right' });
    c.wake();
    clock.advance(0.1);
    expect(c.tick().phase).toBe('gettingUp');
    clock.advance(LIE_DOWN_SEC);
    expect(c.tick().phase).toBe('awake');
  });
});
