/**
 * The timeline's motion amount per track, re-measured only where an edit changed the track
 * (shared/edits/motionAmount.ts channelAmount with shared/motion/channelDiff.ts changedSpan): equal to
 * measuring the edited track whole, number for number (tolerance 0), for a pose edit (values change in
 * a span), a key move (keys leave and arrive) and an untouched track.
 */
import { expect, it } from 'vitest';
import { channelAmount, motionAmount } from '../../../shared/edits/motionAmount';
import { changedSpan } from '../../../shared/motion/channelDiff';
import { applyPoseDelta } from '../../../shared/edits/poseDelta';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { boneChannel, withChannels, type Channel, type Motion } from '../../../shared/motion/types';
import { fromAxisAngle } from '../../../shared/math/quat';
import { KeySelectionState } from '../../../renderer/timeline/dopeSheetSelection';
import { makeLongMotion } from '../../../testkit/longMotion';

const arm = (m: Motion): Channel => boneChannel(m, 'leftUpperArm', 'rotation')!;

function check(before: Channel, after: Channel, expectPartial: boolean): void {
  const whole = channelAmount(after);
  expect(Array.from(whole)).toEqual(Array.from(motionAmount(withChannels(makeLongMotion(1), [after]))));
  const span = changedSpan(before, after);
  expect(span !== undefined).toBe(expectPartial);
  const partial = span ? channelAmount(after, { amount: channelAmount(before), span }) : channelAmount(before);
  expect(Array.from(partial)).toEqual(Array.from(whole));
  if (span) {
    // The edit did change the amount, so equality above is not of two unchanged arrays.
    const old = channelAmount(before);
    expect(whole.some((v, i) => v !== old[i])).toBe(true);
    expect(Number.isFinite(span[0]) && Number.isFinite(span[1])).toBe(true);
  }
}

it('a pose edit with falloff, a key move and an untouched track: partial re-measure equals whole', () => {
  const m = makeLongMotion(60, 60);
  const posed = applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.4), 20, 0.5);
  check(arm(m), arm(posed), true);
  const sel = new KeySelectionState();
  const c = arm(m);
  sel.selectTimeSpan(`${c.node}/${c.path}`, c.times, 30, 31);
  const moved = moveKeys(m, sel.toKeySelection(), 0.25);
  check(arm(m), arm(moved), true);
  check(arm(m), arm(m), false);
});
