/**
 * Every edit, on every fixture .vrma and on generated motions: the written file has 0 glTF-Validator
 * errors and loads in three-vrm-animation, the input is never mutated, and channels an edit does not
 * touch are the same objects.
 */
import { describe, expect, it } from 'vitest';
import { basename } from 'node:path';
import type { Motion } from '../../../shared/motion/types';
import { durationOf } from '../../../shared/motion/types';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import * as edits from '../../../shared/edits';
import { fromAxisAngle } from '../../../shared/math/quat';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { wavyMotion, withRotatedRest } from './editTestKit';

type Edit = [name: string, apply: (m: Motion) => Motion, touches: (m: Motion) => 'all' | 'humanoid-rotations' | 'hips-translation' | 'some'];

const EDITS: Edit[] = [
  ['keep', (m) => edits.keepRange(m, durationOf(m) * 0.1, durationOf(m) * 0.9), () => 'all'],
  ['delete', (m) => edits.deleteRange(m, durationOf(m) * 0.3, durationOf(m) * 0.5), () => 'all'],
  ['speed', (m) => edits.changeSpeed(m, 1.5), () => 'all'],
  ['reverse', (m) => edits.reverse(m), () => 'all'],
  ['mirror', (m) => edits.mirror(m), () => 'some'],
  ['in-place', (m) => edits.inPlace(m), () => 'hips-translation'],
  ['smooth', (m) => edits.smooth(m, 0.1), () => 'some'],
  ['loop', (m) => edits.loopSeam(m, Math.min(0.3, durationOf(m) / 2)), () => 'all'],
  ['strip', (m) => edits.strip(m, { fingers: true, hipsTranslation: true }), () => 'some'],
  ['optimize', (m) => edits.optimize(m), () => 'some'],
  ['fix', (m) => edits.fixOutliers(m), () => 'all'],
  ['join', (m) => edits.join(m, wavyMotion({ duration: 1.5 })), () => 'all'],
  ['resample', (m) => edits.resample(m, 24), () => 'all'],
  ['pose', (m) => edits.applyPoseDelta(m, 'leftUpperArm', fromAxisAngle([0, 0, 1], 0.4), durationOf(m) / 2, 0.3, { hipsDelta: [0.01, 0, 0] }), () => 'some'],
];

function snapshot(m: Motion): string {
  return JSON.stringify(m.gltf) + m.channels.map((c) => `${c.node}/${c.path}:${Array.from(c.times).join()}|${Array.from(c.values).join()}`).join(';');
}

async function checkAll(name: string, source: Motion): Promise<void> {
  const before = snapshot(source);
  for (const [editName, apply, touches] of EDITS) {
    if (durationOf(source) === 0 && editName !== 'mirror' && editName !== 'strip' && editName !== 'optimize' && editName !== 'fix' && editName !== 'smooth' && editName !== 'in-place') {
      // A single-key motion has no range to cut, speed up or loop: those edits refuse it clearly.
      if (['keep', 'delete', 'loop'].includes(editName)) expect(() => apply(source), editName).toThrow(/range|blend|motion/);
      continue;
    }
    const result = apply(source);
    expect(snapshot(source), `${editName} mutated its input`).toBe(before);
    const bytes = writeVrma(result);
    const report = await validateVrmaBytes(bytes);
    expect(report.errors, `${name} ${editName}: ${report.messages.join('\n')}`).toBe(0);
    const animation = await loadVrmAnimation(bytes);
    expect(animation.duration).toBeCloseTo(durationOf(result), 4);
    // Round trip: what we wrote reads back as the same channels.
    const back = readVrma(bytes);
    expect(back.channels.length).toBe(result.channels.length);
    if (touches(source) === 'hips-translation') {
      const hipsNode = source.humanoid.boneToNode.hips;
      result.channels.forEach((c, i) => (c.node === hipsNode && c.path === 'translation' ? undefined : expect(c).toBe(source.channels[i])));
    }
  }
}

describe('every edit keeps a generated file valid', () => {
  it('generated motion with rotated rest, cm hips parent, expressions and gaze', async () => {
    await checkAll('generated', withRotatedRest(wavyMotion({ duration: 3, fps: 30 })));
  });
});

describeFixtures('every edit keeps each fixture valid', () => {
  for (const file of fixtureFiles('vrma', '.vrma')) {
    it(`${basename(file)}: 0 validator errors, loads in three-vrm-animation, input untouched`, async () => {
      await checkAll(basename(file), readVrma(new Uint8Array(readFileSync(file))));
    });
  }
});
