/**
 * Edits on a time range (issue 13): smooth, mirror, reverse, speed, in place, strip, optimize, fix
 * outliers and resample with a range, run through the registry as the CLI and the studio run them.
 * Outside the range every key is the original's to the bit (times and values); speed and fix shift
 * what follows by the change of length and keep its values to the bit; inside, the edit did change
 * something; at the borders the pose is the original's. Also `vrma-studio smooth --from --to`.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Channel, Motion } from '../../../shared/motion/types';
import { componentsOf, durationOf, findChannel } from '../../../shared/motion/types';
import { editById, runEdit } from '../../../shared/edits/registry';
import { sampleChannel } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { buildMotion } from '../../../shared/vrma/buildMotion';
import { fromAxisAngle } from '../../../shared/math/quat';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { cli } from '../../../testkit/cli';
import { fixtureMotion, wavyMotion, withRotatedRest } from './editTestKit';

const TIME_KEEPING: readonly [string, Record<string, number | boolean>][] = [
  ['smooth', { sigma: 0.3 }],
  ['mirror', {}],
  ['reverse', {}],
  ['in-place', {}],
  ['strip', { fingers: true, 'hips-translation': true }],
  ['optimize', { 'rot-tol': 0.01 }],
  ['resample', { fps: 10 }],
];

const bits = (a: Float32Array) => Array.from(new Uint32Array(a.buffer, a.byteOffset, a.length));
const part = (c: Channel, first: number, end: number) => {
  const size = componentsOf(c.path);
  return { times: bits(c.times.subarray(first, end)), values: bits(c.values.subarray(first * size, end * size)) };
};
const countBelow = (c: Channel, t: number) => c.times.filter((x) => x < Math.fround(t)).length;
const countAbove = (c: Channel, t: number) => c.times.filter((x) => x > Math.fround(t)).length;

/** Every key of every original track before `from` and after `to` (shifted by `shift`) is in `out` bit for bit. */
function expectOutsideUnchanged(m: Motion, out: Motion, from: number, to: number, shift = 0) {
  let compared = 0;
  for (const c of m.channels) {
    const o = findChannel(out, c.node, c.path);
    if (c.times.length <= 1) {
      if (o) expect(o === c || bits(o.values).join() === bits(c.values).join()).toBe(true);
      continue;
    }
    expect(o, `track ${c.node}/${c.path}`).toBeDefined();
    const nb = countBelow(c, from);
    expect(part(o!, 0, nb)).toEqual(part(c, 0, nb));
    const na = countAbove(c, to);
    const oa = countAbove(o!, to + shift);
    expect(oa, `keys after the range on ${c.node}/${c.path}`).toBe(na);
    const size = componentsOf(c.path);
    expect(bits(o!.values.subarray((o!.times.length - na) * size))).toEqual(bits(c.values.subarray((c.times.length - na) * size)));
    if (shift === 0) expect(bits(o!.times.subarray(o!.times.length - na))).toEqual(bits(c.times.subarray(c.times.length - na)));
    else for (let k = 1; k <= na; k++) expect(Math.abs(o!.times[o!.times.length - k] - (c.times[c.times.length - k] + shift))).toBeLessThan(1e-5);
    compared += nb + na;
  }
  expect(compared).toBeGreaterThan(0);
}

/** Largest difference of any track between two motions at time t (1 - |dot| for rotations, abs otherwise). */
function difference(a: Motion, b: Motion, t: number, tb = t): number {
  let worst = 0;
  for (const c of a.channels) {
    const o = findChannel(b, c.node, c.path);
    if (!o) continue;
    const size = componentsOf(c.path);
    const x = sampleChannel(c, t, new Float64Array(size));
    const y = sampleChannel(o, tb, new Float64Array(size));
    if (size === 4) worst = Math.max(worst, 1 - Math.abs(x[0] * y[0] + x[1] * y[1] + x[2] * y[2] + x[3] * y[3]) / (Math.hypot(...x) * Math.hypot(...y)));
    else worst = Math.max(worst, ...Array.from(x, (v, i) => Math.abs(v - y[i]) / Math.max(1, Math.abs(v))));
  }
  return worst;
}

function checkTimeKeeping(m: Motion, from: number, to: number, label: string) {
  for (const [id, params] of TIME_KEEPING) {
    const def = editById(id)!;
    expect(def.range, id).toBe('optional');
    const whole = runEdit(def, { motion: m }, params).motion;
    if (whole === m) continue; // nothing to do on this motion (e.g. in place without hips travel)
    const out = runEdit(def, { motion: m, range: { from, to } }, params).motion;
    expectOutsideUnchanged(m, out, from, to);
    expect(durationOf(out), `${label} ${id} duration`).toBeCloseTo(durationOf(m), 5);
    // The pose at the borders is the original's; in the middle the edit did something.
    expect(difference(m, out, from), `${label} ${id} at from`).toBeLessThan(1e-6);
    expect(difference(m, out, to), `${label} ${id} at to`).toBeLessThan(1e-6);
    // Between keys outside the range the pose is the original's too.
    for (const t of [from * 0.5, from - 0.013, to + 0.017, (to + durationOf(m)) / 2].filter((t) => t > 0 && t < durationOf(m) && (t < from || t > to))) {
      expect(difference(m, out, t), `${label} ${id} at ${t}`).toBeLessThan(1e-6);
    }
    // Inside, away from the border blends, the edit changed what the whole-motion edit changes there.
    const inner = [0.3, 0.6].map((f) => from + f * (to - from));
    const changed = id === 'optimize' || id === 'resample'
      ? out.channels.reduce((s, c) => s + c.times.length, 0) !== m.channels.reduce((s, c) => s + c.times.length, 0)
      : Math.max(...inner.map((t) => difference(m, out, t))) > 1e-6;
    const reversedDiffers = Math.max(...inner.map((t) => difference(m, m, t, from + to - t))) > 1e-6;
    const wholeChanged = id === 'optimize' || id === 'resample' || id === 'strip' || (id === 'reverse' ? reversedDiffers : Math.max(...inner.map((t) => difference(m, whole, t))) > 1e-6);
    expect(changed, `${label} ${id} changed the range`).toBe(wholeChanged);
    // Between the border blends the result is the whole-motion edit's, key for key.
    if (id !== 'reverse' && id !== 'in-place') {
      for (const c of whole.channels) {
        const o = findChannel(out, c.node, c.path)!;
        const size = componentsOf(c.path);
        for (let k = 0; k < c.times.length; k++) {
          const t = c.times[k];
          if (t - from <= 0.1 || to - t <= 0.1) continue;
          const i = Array.from(o.times).indexOf(t);
          expect(i, `${label} ${id} key at ${t}`).toBeGreaterThanOrEqual(0);
          expect(bits(o.values.subarray(i * size, i * size + size))).toEqual(bits(c.values.subarray(k * size, k * size + size)));
        }
      }
    }
    expect(readVrma(writeVrma(out)).channels.length).toBe(out.channels.length);
  }
}

function checkSpeed(m: Motion, from: number, to: number) {
  const out = runEdit(editById('speed')!, { motion: m, range: { from, to } }, { factor: 2 }).motion;
  const shift = (to - from) / 2 - (to - from);
  expect(durationOf(out)).toBeCloseTo(durationOf(m) + shift, 4);
  expectOutsideUnchanged(m, out, from, to, shift);
  // Inside: the pose at from + s/2 is the original's at from + s.
  for (const s of [0.1, 0.37, 0.8].map((f) => f * (to - from))) expect(difference(m, out, from + s, from + s / 2)).toBeLessThan(1e-5);
  // After: moved earlier by half the range.
  expect(difference(m, out, to + 0.21, to + 0.21 + shift)).toBeLessThan(1e-5);
}

describe('range edits on generated motions', () => {
  it('time-keeping edits leave everything outside the range to the bit (standard and rotated rest)', () => {
    checkTimeKeeping(wavyMotion(), 1, 3, 'wavy');
    checkTimeKeeping(withRotatedRest(wavyMotion({ seed: 9 })), 0.95, 2.45, 'rotated');
  });
  it('speed on a range stretches that part and shifts what follows', () => {
    checkSpeed(wavyMotion(), 1, 3);
    checkSpeed(withRotatedRest(wavyMotion()), 0.5, 1.73);
  });
  it('fix outliers on a range cuts a broken frame at the start of the range; what follows moves earlier', () => {
    // 2 s at 30 fps, spine swinging gently; the frame at 1 s is a rest-pose glitch.
    const n = 61;
    const times = Float32Array.from({ length: n }, (_, i) => i / 30);
    const rot = (i: number) => (i === 30 ? fromAxisAngle([1, 0, 0], 2.5) : fromAxisAngle([0, 1, 0], 0.3 * Math.sin(i / 5)));
    const values = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) values.set(rot(i), i * 4);
    const values2 = new Float32Array(n * 4);
    for (let i = 0; i < n; i++) values2.set(fromAxisAngle([0, 0, 1], 0.2 * Math.sin(i / 7)), i * 4);
    const m = buildMotion({ rotations: { spine: { times, values }, chest: { times, values: values2 } } });
    const out = runEdit(editById('fix')!, { motion: m, range: { from: 1, to: 2 } }, {}).motion;
    expect(durationOf(out)).toBeCloseTo(2 - 1 / 30, 5);
    expectOutsideUnchanged(m, out, 1, 2, -1 / 30);
    const spine = findChannel(out, m.humanoid.boneToNode.spine!, 'rotation')!;
    expect(spine.times.length).toBe(n - 1);
    const k = Array.from(spine.times).indexOf(1);
    expect(bits(spine.values.subarray(k * 4, k * 4 + 4))).toEqual(bits(values.subarray(31 * 4, 32 * 4)));
  });
  it('a range outside the motion is refused', () => {
    expect(() => runEdit(editById('smooth')!, { motion: wavyMotion(), range: { from: 2, to: 9 } }, {})).toThrow(/after the end/);
    expect(() => runEdit(editById('mirror')!, { motion: wavyMotion(), range: { from: 2, to: 2 } }, {})).toThrow(/the range must start before it ends/);
  });
});

describeFixtures('range edits on the fixtures', () => {
  for (const [name, from, to] of [['idle_loop.vrma', 1, 3], ['hips_spine_twisting.vrma', 10, 20.5], ['test.vrma', 1, 2]] as const) {
    it(`${name}: [${from}, ${to}] — outside unchanged to the bit, speed shifts what follows`, () => {
      const m = fixtureMotion(name);
      checkTimeKeeping(m, from, to, name);
      checkSpeed(m, from, to);
    });
  }
  it('vrma-studio smooth in.vrma --from 1 --to 3 -o out.vrma equals the registry edit, bytes for bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'range-cli-'));
    try {
      const out = join(dir, 'out.vrma');
      const r = await cli('smooth', fixturePath('vrma', 'idle_loop.vrma'), '--from', '1', '--to', '3', '-o', out);
      expect(r.code, r.err).toBe(0);
      const m = fixtureMotion('idle_loop.vrma');
      const expected = writeVrma(runEdit(editById('smooth')!, { motion: m, range: { from: 1, to: 3 } }, {}).motion);
      expect(Buffer.from(readFileSync(out)).equals(Buffer.from(expected))).toBe(true);
      const result = readVrma(readFileSync(out));
      expectOutsideUnchanged(m, result, 1, 3);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
