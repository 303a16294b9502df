/** fix outliers and join. */
import { describe, expect, it } from 'vitest';
import type { Channel, Motion } from '../../../shared/motion/types';
import { componentsOf, durationOf } from '../../../shared/motion/types';
import { fixOutliers, findOutlierFrames } from '../../../shared/edits/fixOutliers';
import { join } from '../../../shared/edits/join';
import { expressionWeightAt } from '../../../shared/edits/expressionKeys';
import { lookAtAt } from '../../../shared/edits/lookAtKeys';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { fromAxisAngle, mul } from '../../../shared/math/quat';
import { makeLongMotion } from '../../../testkit/longMotion';
import { restRotation } from '../../../shared/vrma/normalizedTracks';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { animatedBones, angle, fixtureMotion, hipsWorldAt, maxPoseDifference, normalizedAt, timesAcross, wavyMotion, withRotatedRest } from './editTestKit';

/** The motion one frame later, with a rest-pose frame at 0 (what some converters write). */
function withRestFrame(m: Motion, frame: number): Motion {
  const nodes = m.gltf.nodes as { translation?: number[] }[];
  const channels = m.channels.map((c): Channel => {
    const size = componentsOf(c.path);
    const bone = m.humanoid.nodeToBone.get(c.node);
    const rest = bone && c.path === 'rotation' ? restRotation(m, bone) : c.path === 'translation' ? nodes[c.node].translation ?? [0, 0, 0] : c.values.subarray(0, size);
    const times = new Float32Array(c.times.length + 1);
    const values = new Float32Array(c.values.length + size);
    times.set(c.times.map((t) => t + frame), 1);
    values.set(rest, 0);
    values.set(c.values, size);
    return { ...c, times, values };
  });
  return { ...m, channels };
}

function expectSameMotion(a: Motion, b: Motion): void {
  expect(a.channels.length).toBe(b.channels.length);
  a.channels.forEach((c, i) => {
    const d = b.channels[i];
    expect(c.times.length).toBe(d.times.length);
    for (let k = 0; k < c.times.length; k++) expect(Math.abs(c.times[k] - d.times[k])).toBeLessThan(2e-6);
    for (let k = 0; k < c.values.length; k++) expect(Math.abs(c.values[k] - d.values[k])).toBeLessThan(1e-6);
  });
}

describe('fixOutliers', () => {
  it('an inserted rest-pose first frame is removed and the motion comes back (generated, rotated rest)', () => {
    const src = withRotatedRest(wavyMotion({ duration: 3, fps: 30 }));
    expect(fixOutliers(src)).toBe(src);
    const broken = withRestFrame(src, 1 / 30);
    expect(findOutlierFrames(broken)!.first).toBe(1);
    expectSameMotion(fixOutliers(broken), src);
  });

  it('after an edit, the reused per-track turns give what a cold run gives (an outlier frame added by the edit is found)', () => {
    const src = withRestFrame(withRotatedRest(wavyMotion({ duration: 3, fps: 30 })), 1 / 30);
    const warm = findOutlierFrames(src)!;
    expect(warm.first).toBe(1);
    expect(warm.last).toBe(warm.frames.length - 1);
    // Turn the last key of three tracks far away: a broken last frame, made by edits that replace those tracks only.
    const picked = src.channels.map((c, i) => (c.path === 'rotation' && src.humanoid.nodeToBone.has(c.node) ? i : -1)).filter((i) => i >= 0).slice(0, 3);
    const edited: Motion = {
      ...src,
      channels: src.channels.map((x, i) => {
        if (!picked.includes(i)) return x;
        const values = x.values.slice();
        const o = values.length - 4;
        values.set(mul(fromAxisAngle([1, 0, 0], 2), [values[o], values[o + 1], values[o + 2], values[o + 3]]), o); // 115° off
        return { ...x, values };
      }),
    };
    const cold: Motion = { ...edited, channels: edited.channels.map((x) => ({ ...x, times: x.times.slice(), values: x.values.slice() })) };
    const a = findOutlierFrames(edited)!;
    const b = findOutlierFrames(cold)!;
    expect({ first: a.first, last: a.last }).toEqual({ first: b.first, last: b.last });
    expect(a.last).toBe(a.frames.length - 2);
  });

  it('a long motion (9,001 frames: the median samples every 2nd) with a track on its own keys finds a broken last frame, warm or cold', () => {
    const long = makeLongMotion(150, 60);
    const k = long.channels.findIndex((c) => c.path === 'rotation');
    const thin = long.channels[k];
    // Every other key: this track is sampled at the grid's pair times, the others read in place.
    const keep = Array.from({ length: Math.ceil(thin.times.length / 2) }, (_, i) => i * 2);
    const times = Float32Array.from(keep, (i) => thin.times[i]);
    const values = new Float32Array(keep.length * 4);
    keep.forEach((i, j) => values.set(thin.values.subarray(i * 4, i * 4 + 4), j * 4));
    const channels = long.channels.map((c, i) => {
      if (i === k) return { ...c, times, values };
      if (c.path !== 'rotation' || i > k + 3) return c;
      const v = c.values.slice();
      const o = v.length - 4;
      v.set(mul(fromAxisAngle([1, 0, 0], 2), [v[o], v[o + 1], v[o + 2], v[o + 3]]), o);
      return { ...c, values: v };
    });
    const m: Motion = { ...long, channels };
    const warm = findOutlierFrames(m)!;
    const cold = findOutlierFrames({ ...m, channels: m.channels.map((c) => ({ ...c, times: c.times.slice(), values: c.values.slice() })) })!;
    expect(warm.frames.length).toBe(9001);
    expect({ first: warm.first, last: warm.last }).toEqual({ first: 0, last: 8999 });
    expect({ first: cold.first, last: cold.last }).toEqual({ first: 0, last: 8999 });
  });
});

function checkJoin(a: Motion, b: Motion, blend: number): Motion {
  const joined = join(a, b, { blend, fixOutliers: false });
  const da = durationOf(a);
  const startB = da - blend;
  expect(durationOf(joined)).toBeCloseTo(da - blend + durationOf(b), 4);
  // A part untouched.
  const before = timesAcross(a, 40).filter((t) => t < startB - 1e-3);
  for (const bone of animatedBones(a)) for (const t of before) expect(angle(normalizedAt(joined, bone, t), normalizedAt(a, bone, t))).toBeLessThan(1e-5);
  // Inside the B part the normalized pose is B's own, for every B bone A has.
  const after = timesAcross(b, 60).filter((t) => t > blend + 1e-3).map((t) => t + startB);
  const shared = animatedBones(b).filter((bone) => a.rest.bones[bone]);
  for (const bone of shared) for (const t of after) expect(angle(normalizedAt(joined, bone, t), normalizedAt(b, bone, t - startB))).toBeLessThan(1e-5);
  // B's hips: same height and same travel relative to its start, scaled by A's hips height over B's.
  const ha = a.rest.hipsHeight;
  const hb = b.rest.hipsHeight;
  const scale = ha > 1e-3 && hb > 1e-3 ? ha / hb : 1;
  const offset = (t: number) => {
    const r = hipsWorldAt(joined, t);
    const s = hipsWorldAt(b, t - startB);
    return [r[0] - s[0] * scale, r[1] - s[1] * scale, r[2] - s[2] * scale];
  };
  const o0 = offset(after[0]);
  expect(Math.abs(o0[1])).toBeLessThan(1e-5);
  for (const t of after) {
    const o = offset(t);
    expect(Math.hypot(o[0] - o0[0], o[1] - o0[1], o[2] - o0[2])).toBeLessThan(1e-5 * Math.max(1, ha));
  }
  return joined;
}

describe('join', () => {
  it('B re-expressed in A rest frame: inside the B part the normalized pose equals B own (different rest poses)', () => {
    const a = withRotatedRest(wavyMotion({ duration: 2, fps: 30, seed: 5 }), 9);
    const b = wavyMotion({ duration: 3, fps: 24, seed: 6 });
    const joined = checkJoin(a, b, 0.25);
    // B's expressions and gaze continue after the fade (issue 27; they used to be dropped): weights to
    // 1e-6 and the gaze to 1e-4° of B's own at the same time within B.
    const names = b.expressions.map((e) => e.name);
    expect(names.length).toBe(3);
    const startJ = durationOf(a) - 0.25;
    for (const t of timesAcross(b, 30).filter((x) => x > 0.3).map((x) => x + startJ)) {
      for (const n of names) expect(Math.abs(expressionWeightAt(joined, n, t) - expressionWeightAt(b, n, t - startJ)), `${n} at ${t}`).toBeLessThan(1e-6);
      const g = lookAtAt(joined, t)!;
      const gb = lookAtAt(b, t - startJ)!;
      expect(Math.abs(g.yaw - gb.yaw) + Math.abs(g.pitch - gb.pitch)).toBeLessThan(1e-4);
    }
    expect(joined.warnings.some((w) => /expression|lookAt/.test(w.text))).toBe(false);
    // The hips continue from where A is when B starts.
    const startB = durationOf(a) - 0.25;
    const at = hipsWorldAt(joined, startB);
    const aAt = hipsWorldAt(a, startB);
    expect(Math.hypot(at[0] - aAt[0], at[2] - aAt[2])).toBeLessThan(1e-5);
  });

  it("a first motion without expressions or gaze gets the second one's, named in a warning, and they survive writing", () => {
    const a = wavyMotion({ duration: 2, seed: 3, expressions: false });
    const b = wavyMotion({ duration: 2, seed: 4 });
    expect(a.expressions.length).toBe(0);
    const joined = readVrma(writeVrma(join(a, b, { blend: 0.2 })));
    expect(joined.expressions.map((e) => e.name).sort()).toEqual(b.expressions.map((e) => e.name).sort());
    expect(joined.lookAtNode).toBeDefined();
    const startJ = durationOf(a) - 0.2;
    for (const t of [0.5, 1, 1.5]) for (const e of b.expressions) expect(Math.abs(expressionWeightAt(joined, e.name, t + startJ) - expressionWeightAt(b, e.name, t))).toBeLessThan(1e-6);
    // Before the join the added expressions are at rest (weight 0).
    for (const e of b.expressions) expect(expressionWeightAt(joined, e.name, 0.5)).toBe(0);
    expect(join(a, b).warnings.some((w) => w.text.includes('had no') && w.text.includes('lookAt'))).toBe(true);
  });

  it('crossfade has no jump and refuses a negative blend', () => {
    const a = wavyMotion({ duration: 2, seed: 1 });
    const b = wavyMotion({ duration: 2, seed: 2 });
    const joined = join(a, b, { blend: 0.3 });
    const bones = animatedBones(a);
    let worst = 0;
    for (let t = 1.6; t < 2.1; t += 1 / 240) for (const bone of bones) worst = Math.max(worst, angle(normalizedAt(joined, bone, t), normalizedAt(joined, bone, t + 1 / 240)));
    expect(worst).toBeLessThan(0.1);
    expect(() => join(a, b, { blend: -1 })).toThrow(MotionError);
  });
});

describeFixtures('fix and join on real files', () => {
  for (const name of ['hips_spine_twisting.vrma', 'idle_loop.vrma']) {
    it(`${name}: an inserted rest-pose first frame comes back to the original`, () => {
      const src = fixtureMotion(name);
      const fps = (src.channels[0].times.length - 1) / durationOf(src);
      const broken = withRestFrame(src, 1 / fps);
      const fixed = fixOutliers(broken);
      expect(durationOf(fixed)).toBeCloseTo(durationOf(src), 5);
      expectSameMotion(fixed, src);
    });
  }

  it('joining a file with a different rest pose keeps B own normalized pose (test.vrma + generated, hips_spine_twisting + idle_loop)', () => {
    checkJoin(fixtureMotion('test.vrma'), withRotatedRest(wavyMotion({ duration: 2.5 })), 0.2);
    const j = checkJoin(fixtureMotion('hips_spine_twisting.vrma'), fixtureMotion('idle_loop.vrma'), 0.5);
    expect(j.warnings.some((w) => /non-humanoid/.test(w.text))).toBe(true);
    const d = maxPoseDifference(fixtureMotion('hips_spine_twisting.vrma'), j, [0, 10, 30]);
    expect(d.rotation).toBeLessThan(1e-5);
  });
});
