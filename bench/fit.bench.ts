/**
 * fit (issue 17): planted-foot drift before -> after, played on the generated mannequin, debug_robot
 * (VRM 1.0) and cryptovoxels (VRM 0.x) by three-vrm-animation (testkit/avatarPlayback.ts).
 * Before = the converted source played on the avatar, after = the fitted file played there; contacts
 * found on the source. Depth = deepest an ankle/toe goes below its rest height on the avatar.
 * Then fit's time on the 10-minute 60 fps motion for the mannequin (issue 30's aim: <= 1 s CPU).
 * BENCH_FILTER=fit node --import tsx bench/run.ts
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { convertToMotion } from '../shared/formats';
import { makeMannequinVrm } from '../shared/assets/mannequin';
import { fitDetailed } from '../shared/edits/fit';
import { measurePoses, newKneeJumpsOf } from '../shared/edits/contactReport';
import { readAvatarSkeleton } from '../shared/avatar/avatarSkeleton';
import { writeVrma } from '../shared/vrma/write';
import { loadTestAvatar, playedPoses, restPoseOf } from '../testkit/avatarPlayback';
import { PIN_FEET_FIXTURES } from './pinFeet.bench';
import { printTable, timeCpu } from './timing';
import { LONG_MOTION, makeLongMotion } from '../testkit/longMotion';

const FIXTURES = resolve(__dirname, '..', '..', 'shared', 'fixtures');
const cm = (x: number) => (x * 100).toFixed(2);

export async function run(): Promise<void> {
  if (!existsSync(join(FIXTURES, 'README.md'))) {
    console.log(`fit: skipped, no fixtures at ${FIXTURES}`);
    return;
  }
  const avatars: [string, Uint8Array][] = [
    ['mannequin', makeMannequinVrm()],
    ['debug_robot (1.0)', new Uint8Array(readFileSync(join(FIXTURES, 'vrm1/debug_robot.vrm')))],
    ['cryptovoxels (0.x)', new Uint8Array(readFileSync(join(FIXTURES, 'vrm0/cryptovoxels.vrm')))],
  ];
  const rows: string[][] = [];
  for (const [name, bytes] of avatars) {
    const avatar = await loadTestAvatar(bytes, name);
    const skel = readAvatarSkeleton(bytes, name);
    const rest = restPoseOf(avatar);
    const heights: Record<string, number> = {};
    for (const b of ['leftFoot', 'leftToes', 'rightFoot', 'rightToes'] as const) if (rest[b]) heights[b] = rest[b]!.position[1];
    for (const f of PIN_FEET_FIXTURES) {
      const m = convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES, f))));
      const r = fitDetailed(m, skel);
      const before = await playedPoses(avatar, writeVrma(m), r.detection.times);
      const after = await playedPoses(avatar, writeVrma(r.motion), r.detection.times);
      const a = measurePoses(before, r.detection, heights);
      const b = measurePoses(after, r.detection, heights);
      rows.push([
        name,
        f.split('/').pop()!,
        String(a.contacts),
        `${cm(a.medianDrift)} -> ${cm(b.medianDrift)}`,
        `${cm(a.worstDrift)} -> ${cm(b.worstDrift)}`,
        `${cm(a.worstDepth)} -> ${cm(b.worstDepth)}`,
        String(newKneeJumpsOf(before, after)),
        `${r.legScale.toFixed(3)} / ${r.heightScale.toFixed(3)}`,
        `${r.hipsScaling} (${cm(r.slide.legs)} / ${cm(r.slide.height)})`,
      ]);
    }
  }
  printTable('fit: played on avatars by three-vrm-animation (cm), before -> after', [
    'avatar',
    'motion',
    'contacts',
    'median drift',
    'worst drift',
    'worst depth',
    'new knee jumps',
    'leg / height scale',
    'hips scaled by (slide cm: legs / height)',
  ], rows);
  const long = makeLongMotion();
  const mannequin = readAvatarSkeleton(makeMannequinVrm(), 'mannequin');
  const t = timeCpu(() => fitDetailed(long, mannequin));
  printTable(`fit to the mannequin, ${LONG_MOTION.seconds / 60} min at ${LONG_MOTION.fps} fps (median of 3)`, ['wall ms', 'cpu ms', 'aim cpu ms', ''], [[
    t.wallMs.toFixed(0),
    t.cpuMs.toFixed(0),
    '< 1000',
    t.cpuMs < 1000 ? 'ok' : 'SLOWER',
  ]]);
}
