/** mirror, in place, strip: measured in the avatar's normalized space. */
import { describe, expect, it } from 'vitest';
import type { Motion, Quat } from '../../../shared/motion/types';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { mirror } from '../../../shared/edits/mirror';
import { inPlace } from '../../../shared/edits/inPlace';
import { strip } from '../../../shared/edits/strip';
import { isFingerBone, mirrorBoneName } from '../../../shared/vrm/humanBones';
import { sampleChannel } from '../../../shared/vrma/sample';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { animatedBones, angle, distance, fixtureMotion, hipsWorldAt, normalizedAt, timesAcross, wavyMotion, withRotatedRest } from './editTestKit';

const generated = withRotatedRest(wavyMotion({ duration: 3, fps: 30 }));

function mirrored(q: Quat): Quat {
  return [q[0], -q[1], -q[2], q[3]];
}

function checkMirror(source: Motion): void {
  const m = mirror(source);
  const bones = animatedBones(source);
  for (const t of timesAcross(source, 23)) {
    for (const bone of bones) {
      const partner = source.rest.bones[mirrorBoneName(bone)] ? mirrorBoneName(bone) : bone;
      // The partner bone of the result shows the mirrored pose of this bone of the source.
      expect(angle(normalizedAt(m, partner, t), mirrored(normalizedAt(source, bone, t)))).toBeLessThan(1e-5);
    }
    if (boneChannel(source, 'hips', 'translation')) {
      const a = hipsWorldAt(source, t);
      const b = hipsWorldAt(m, t);
      const tol = 1e-5 * Math.max(1, Math.abs(a[1]));
      expect(Math.abs(b[0] + a[0])).toBeLessThan(tol);
      expect(Math.abs(b[1] - a[1])).toBeLessThan(tol);
      expect(Math.abs(b[2] - a[2])).toBeLessThan(tol);
    }
  }
  // Mirroring twice gives the source back.
  const twice = mirror(m);
  for (const c of source.channels) {
    const back = twice.channels.find((x) => x.node === c.node && x.path === c.path)!;
    expect(back).toBeDefined();
    if (c.path === 'translation' && source.humanoid.nodeToBone.get(c.node) === 'hips') {
      // Compared in world metres (file units can be centimetres).
      for (const t of timesAcross(source, 23)) expect(distance(hipsWorldAt(twice, t), hipsWorldAt(source, t))).toBeLessThan(1e-6);
      continue;
    }
    let err = 0;
    for (let i = 0; i < c.values.length; i++) err = Math.max(err, Math.abs(c.values[i] - back.values[i]));
    expect(err).toBeLessThan(1e-6);
  }
}

describe('mirror', () => {
  it('left bone of the result equals the mirrored right bone of the source; twice is the source (generated, rotated rest)', () => {
    checkMirror(generated);
  });

  it('moves tracks to the partner bone, swaps left/right expressions, mirrors the gaze', () => {
    const src = wavyMotion({ duration: 2 });
    const m = mirror(src);
    // leftIndexProximal was animated, rightIndexProximal was not: now it is the other way round.
    expect(boneChannel(m, 'rightIndexProximal', 'rotation')).toBeDefined();
    expect(boneChannel(m, 'leftIndexProximal', 'rotation')).toBeUndefined();
    const blinkLeft = src.expressions.find((e) => e.name === 'blinkLeft')!.node;
    const blinkRight = src.expressions.find((e) => e.name === 'blinkRight')!.node;
    const srcLeft = src.channels.find((c) => c.node === blinkLeft)!;
    expect(m.channels.find((c) => c.node === blinkRight)!.values).toBe(srcLeft.values);
    const gaze = m.channels.find((c) => c.node === src.lookAtNode)!;
    const srcGaze = src.channels.find((c) => c.node === src.lookAtNode)!;
    const q = Array.from(sampleChannel(gaze, 0.3, new Float64Array(4))) as unknown as Quat;
    const p = Array.from(sampleChannel(srcGaze, 0.3, new Float64Array(4))) as unknown as Quat;
    expect(angle(q, mirrored(p))).toBeLessThan(1e-6);
    // Expression 'happy' has no partner: its channel is shared untouched.
    const happy = src.expressions.find((e) => e.name === 'happy')!.node;
    expect(m.channels.find((c) => c.node === happy)).toBe(src.channels.find((c) => c.node === happy));
  });
});

describe('inPlace', () => {
  it('fixes hips x/z to the first value, keeps height and rotations', () => {
    const m = inPlace(generated);
    const first = hipsWorldAt(generated, 0);
    for (const t of timesAcross(generated, 31)) {
      const a = hipsWorldAt(generated, t);
      const b = hipsWorldAt(m, t);
      expect(Math.abs(b[0] - first[0])).toBeLessThan(1e-5);
      expect(Math.abs(b[2] - first[2])).toBeLessThan(1e-5);
      expect(Math.abs(b[1] - a[1])).toBeLessThan(1e-5);
    }
    // The source travelled: this test could fail.
    expect(Math.abs(hipsWorldAt(generated, durationOf(generated))[2] - first[2])).toBeGreaterThan(1);
    const hips = boneChannel(generated, 'hips', 'translation');
    m.channels.forEach((c, i) => (generated.channels[i] === hips ? expect(c).not.toBe(hips) : expect(c).toBe(generated.channels[i])));
  });
});

describe('strip', () => {
  it('drops only finger tracks and/or hips translation', () => {
    const fingers = strip(generated, { fingers: true });
    expect(fingers.channels.length).toBe(generated.channels.length - 2);
    for (const c of fingers.channels) {
      const bone = generated.humanoid.nodeToBone.get(c.node);
      expect(bone === undefined || !isFingerBone(bone)).toBe(true);
      expect(generated.channels).toContain(c);
    }
    const both = strip(generated, { fingers: true, hipsTranslation: true });
    expect(both.channels.length).toBe(generated.channels.length - 3);
    expect(boneChannel(both, 'hips', 'translation')).toBeUndefined();
    expect(boneChannel(both, 'hips', 'rotation')).toBe(boneChannel(generated, 'hips', 'rotation'));
    expect(() => strip(generated, {})).toThrow(MotionError);
  });
});

describeFixtures('mirror and in place on real files', () => {
  for (const name of ['test.vrma', 'hips_spine_twisting.vrma', 'idle_loop.vrma']) {
    it(`${name}: mirror`, () => checkMirror(fixtureMotion(name)));
  }
  it('idle_loop.vrma (centimetre skeleton): in place keeps the height', () => {
    const src = fixtureMotion('idle_loop.vrma');
    const m = inPlace(src);
    const first = hipsWorldAt(src, 0);
    for (const t of timesAcross(src, 31)) {
      const b = hipsWorldAt(m, t);
      expect(Math.abs(b[0] - first[0]) + Math.abs(b[2] - first[2])).toBeLessThan(1e-6);
      expect(Math.abs(b[1] - hipsWorldAt(src, t)[1])).toBeLessThan(1e-6);
    }
  });
});
