/**
 * What the studio's views recompute after one pose edit on the 10-minute 60 fps motion, in Node, the
 * way they did before the incremental views (whole motion) against now (only what the edit changed),
 * timed in alternating rounds so a busy machine slows both alike:
 *  - foot contacts of the timeline strip: whole-skeleton FK at every frame (as before) / the foot
 *    track re-measured where the edit moved a foot (a thigh edit), and not at all for an arm edit;
 *  - "has outliers" of the edit panel: every track sampled (a cold cache) / the edited track only;
 *  - the motion amount curve: every track measured / the edited track's changed span only.
 * BENCH_FILTER=editFollowUp node --import tsx bench/run.ts
 */
import type { Channel, Motion } from '../shared/motion/types';
import { applyPoseDelta, frameTimes } from '../shared/edits/poseDelta';
import { detectFootContacts, contactsOfTrack, posesAt } from '../shared/edits/pinFeet';
import { createFootTrack, measureFootFrames, planFootTrack } from '../shared/edits/footTrack';
import { findOutlierFrames } from '../shared/edits/fixOutliers';
import { channelAmount } from '../shared/edits/motionAmount';
import { changedSpan } from '../shared/motion/channelDiff';
import { fromAxisAngle } from '../shared/math/quat';
import { makeLongMotion } from '../testkit/longMotion';
import { printTable, timeRounds } from './timing';
import { maybeWriteBaseline, ratioText, readBaseline } from './baseline';

const cold = (m: Motion): Motion => ({ ...m, channels: m.channels.map((c) => ({ ...c, values: c.values.slice() })) });

export async function run(): Promise<void> {
  const motion = makeLongMotion();
  const t = frameTimes(motion)[6000];
  const turn = fromAxisAngle([0, 0, 1], 0.35);
  const arm = applyPoseDelta(motion, 'leftUpperArm', turn, t, 0.4);
  const leg = applyPoseDelta(motion, 'leftUpperLeg', turn, t, 0.4);
  const track = createFootTrack(motion);
  findOutlierFrames(motion);
  const amounts = new Map<Channel, Float32Array>(motion.channels.filter((c) => c.path === 'rotation').map((c) => [c, channelAmount(c)]));
  const edited = (m: Motion) => m.channels.find((c, i) => c !== motion.channels[i] && c.path === 'rotation')!;
  const baseline = readBaseline('editFollowUp');
  const figures: Record<string, number> = {};
  const rows: string[][] = [];
  const add = (label: string, before: number, after: number) => {
    figures[`${label} before`] = before;
    figures[`${label} after`] = after;
    rows.push([label, `${before.toFixed(1)} ms`, `${after.toFixed(2)} ms`, `${(before / after).toFixed(0)}x`, ratioText(baseline, `${label} after`, after)]);
  };

  const incremental = (m: Motion) => () => {
    const { track: next, todo } = planFootTrack(m, { ...track, ankleY: track.ankleY.slice(), toesY: track.toesY.slice(), ankleXZ: track.ankleXZ.slice() }, { reuse: true });
    for (const [a, b] of todo) measureFootFrames(next, a, b);
    return contactsOfTrack(next);
  };
  const [wholeLeg, legNow, armNow] = await timeRounds(
    [
      { label: 'whole', fn: () => detectFootContacts(leg, {}, posesAt(leg, frameTimes(leg))) },
      { label: 'leg', fn: incremental(leg) },
      { label: 'arm', fn: incremental(arm) },
    ],
    3,
  );
  add('foot contacts after a thigh edit', wholeLeg.ms, legNow.ms);
  add('foot contacts after an arm edit', wholeLeg.ms, armNow.ms);

  const [outCold, outWarm] = await timeRounds(
    [
      { label: 'cold', fn: () => findOutlierFrames(cold(arm)) },
      { label: 'warm', fn: () => findOutlierFrames({ ...arm, channels: [...arm.channels] }) },
    ],
    5,
  );
  add('has outliers after an arm edit', outCold.ms, outWarm.ms);

  const c = edited(arm);
  const prev = motion.channels[arm.channels.indexOf(c)];
  const [amWhole, amSpan] = await timeRounds(
    [
      { label: 'whole', fn: () => arm.channels.filter((x) => x.path === 'rotation').map((x) => channelAmount(x)) },
      { label: 'span', fn: () => channelAmount(c, { amount: amounts.get(prev)!, span: changedSpan(prev, c)! }) },
    ],
    5,
  );
  add('motion amount after an arm edit', amWhole.ms, amSpan.ms);

  printTable(
    "After one pose edit on the 10-minute motion (Node): the views' recomputation, whole motion (before) vs incremental (now)",
    ['recomputed', 'before', 'now', 'speed-up', 'vs baseline'],
    rows,
  );
  maybeWriteBaseline('editFollowUp', figures, `bench/editFollowUp.bench.ts, ${new Date().toISOString()}`);
}
