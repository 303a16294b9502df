/**
 * The one time-axis gesture controller (dope sheet, timeline strip, and the curve view once wired): pan
 * by dragging the ruler, seek on a press that does not travel, wheel zoom and pan, on views built here.
 * Tolerance 1e-9 s on times that are sums and products of a few doubles.
 */
import { describe, expect, it } from 'vitest';
import { DRAG_PX, panTo, TimeAxisGesture, wheelTimeView, type WheelTurn } from '../../../renderer/timeline/timeAxisGesture';
import { xToTime, type TimeView } from '../../../renderer/timeline/timeScale';

const EPS = 1e-9;
const plain: WheelTurn = { deltaX: 0, deltaY: 0, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false };

/** A host with a 118 px label column over a 10 s motion, recording its seeks. */
function host(view: TimeView) {
  const seeks: Array<[number, boolean]> = [];
  const state = { view, sets: 0 };
  const gesture = new TimeAxisGesture({
    left: 118,
    view: () => state.view,
    setView: (v) => {
      state.view = v;
      state.sets++;
    },
    duration: () => 10,
    seek: (t, free) => seeks.push([t, free]),
  });
  return { gesture, state, seeks };
}

describe('time-axis gestures', () => {
  it('pans keeping the span, inside [0, max(duration, span)]', () => {
    const v = { start: 2, end: 4, width: 400 };
    expect(panTo(v, 3, 10)).toEqual({ start: 3, end: 5, width: 400 });
    expect(panTo(v, -1, 10)).toEqual({ start: 0, end: 2, width: 400 });
    expect(panTo(v, 9.5, 10)).toEqual({ start: 8, end: 10, width: 400 });
    // A span wider than the motion stays at 0.
    expect(panTo({ start: 0, end: 20, width: 400 }, 5, 10).start).toBe(0);
  });

  it('a ruler press that stays within DRAG_PX seeks where it started (clamped, Alt passed on); one that travels pans and does not seek', () => {
    const { gesture, state, seeks } = host({ start: 2, end: 4, width: 400 });
    gesture.pressRuler(118 + 100);
    expect(gesture.moveRuler(118 + 100 + DRAG_PX)).toBe(false);
    gesture.releaseRuler(true);
    expect(seeks).toHaveLength(1);
    expect(seeks[0][0]).toBeCloseTo(2.5, 9);
    expect(seeks[0][1]).toBe(true);
    expect(state.sets).toBe(0);

    gesture.pressRuler(118 + 100);
    // 100 px to the left of the press drags the time under the pointer along: the view starts 0.5 s later.
    expect(gesture.moveRuler(118)).toBe(true);
    expect(state.view.start).toBeCloseTo(2.5, 9);
    expect(state.view.end - state.view.start).toBeCloseTo(2, 9);
    // Back to the press point: the view is where it began (the pan is from the press, not cumulative).
    gesture.moveRuler(118 + 100);
    expect(Math.abs(state.view.start - 2)).toBeLessThan(EPS);
    gesture.releaseRuler(false);
    expect(seeks).toHaveLength(1);
    expect(gesture.pressing).toBe(false);
  });

  it('a cancelled press does not seek; a click past the motion seeks its end', () => {
    const { gesture, seeks } = host({ start: 0, end: 20, width: 400 });
    gesture.pressRuler(300);
    gesture.releaseRuler(false, true);
    expect(seeks).toEqual([]);
    gesture.seekAt(118 + 390, false);
    expect(seeks).toEqual([[10, false]]);
    gesture.seekAt(10, false);
    expect(seeks[1]).toEqual([0, false]);
  });

  it('the wheel zooms around the pointer with Ctrl/⌘/Alt or over the ruler, pans with Shift or sideways, and leaves a plain vertical turn to the view', () => {
    const v = { start: 2, end: 6, width: 400 };
    for (const mod of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }, {}]) {
      const e = { ...plain, ...mod, deltaY: -100 };
      const next = wheelTimeView(v, e, 100, !('ctrlKey' in mod || 'metaKey' in mod || 'altKey' in mod), 10)!;
      // exp(0.15) narrower, and the time under the pointer (3 s) still under it.
      expect(next.end - next.start).toBeCloseTo(4 / Math.exp(0.15), 9);
      expect(xToTime(next, 100)).toBeCloseTo(3, 9);
    }
    const shift = wheelTimeView(v, { ...plain, shiftKey: true, deltaY: 50 }, 100, false, 10)!;
    expect(shift.start).toBeCloseTo(2.5, 9);
    const sideways = wheelTimeView(v, { ...plain, deltaX: -40, deltaY: 10 }, 100, false, 10)!;
    expect(sideways.start).toBeCloseTo(1.6, 9);
    expect(wheelTimeView(v, { ...plain, deltaY: 30 }, 100, false, 10)).toBeNull();

    const { gesture, state } = host(v);
    // The gesture measures x from the label column.
    expect(gesture.wheel({ ...plain, ctrlKey: true, deltaY: -100 }, 118 + 100, false)).toBe(true);
    expect(xToTime(state.view, 100)).toBeCloseTo(3, 9);
    expect(gesture.wheel({ ...plain, deltaY: 30 }, 218, false)).toBe(false);
    expect(state.sets).toBe(1);
  });
});
