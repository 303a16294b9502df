/**
 * Planted-foot drift before -> after pin-feet on the fixtures' converted BVH walks and the Mei VMD
 * motions, on each motion's own skeleton (issue 17). Drift = per contact found on the source, the
 * largest horizontal distance of the ankle from where it was at the contact's start; median and worst
 * over the contacts; depth = deepest a foot point goes below its rest height; knee jumps = frames where
 * a knee angle changes by > 10° from the previous frame and the source's did not.
 * Then pin-feet's time on the 10-minute 60 fps motion (issue 30's aim: <= 1 s CPU).
 * BENCH_FILTER=pinFeet node --import tsx bench/run.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convertToMotion } from '../shared/formats';
import { pinFeetDetailed } from '../shared/edits/pinFeet';
import { measureContacts, newKneeJumps } from '../shared/edits/contactReport';
import { printTable, timeCpu } from './timing';
import { LONG_MOTION, makeLongMotion } from '../testkit/longMotion';

const FIXTURES = resolve(__dirname, '..', '..', 'shared', 'fixtures');
export const PIN_FEET_FIXTURES = [
  'bvh/cmu_12_01_walk.bvh',
  'bvh/cmu_05_20-mb.bvh',
  'bvh/pirouette.bvh',
  'vmd/mmdagent/mei_bye.vmd',
  'vmd/mmdagent/mei_greeting.vmd',
  'vmd/mmdagent/mei_happiness.vmd',
  'vmd/mmdagent/mei_wait.vmd',
];
const cm = (x: number) => (x * 100).toFixed(2);

export async function run(): Promise<void> {
  if (!existsSync(join(FIXTURES, 'README.md'))) {
    console.log(`pinFeet: skipped, no fixtures at ${FIXTURES}`);
    return;
  }
  const rows: string[][] = [];
  for (const f of PIN_FEET_FIXTURES) {
    const m = convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES, f))));
    const start = performance.now();
    const r = pinFeetDetailed(m);
    const ms = performance.now() - start;
    const a = measureContacts(m, r.detection);
    const b = measureContacts(r.motion, r.detection);
    rows.push([
      f.split('/').pop()!,
      String(a.contacts),
      `${cm(a.medianDrift)} -> ${cm(b.medianDrift)}`,
      `${cm(a.worstDrift)} -> ${cm(b.worstDrift)}`,
      `${cm(a.worstDepth)} -> ${cm(b.worstDepth)}`,
      String(newKneeJumps(m, r.motion, r.detection.times)),
      cm(r.maxHipsDrop),
      ms.toFixed(0),
    ]);
  }
  printTable("pin-feet: planted-foot drift on the motion's own skeleton (cm), before -> after", [
    'motion',
    'contacts',
    'median drift',
    'worst drift',
    'worst depth',
    'new knee jumps',
    'hips drop',
    'ms',
  ], rows);
  const long = makeLongMotion();
  const t = timeCpu(() => pinFeetDetailed(long));
  printTable(`pin-feet on ${LONG_MOTION.seconds / 60} min at ${LONG_MOTION.fps} fps (median of 3)`, ['wall ms', 'cpu ms', 'aim cpu ms', ''], [[
    t.wallMs.toFixed(0),
    t.cpuMs.toFixed(0),
    '< 1000',
    t.cpuMs < 1000 ? 'ok' : 'SLOWER',
  ]]);
}
