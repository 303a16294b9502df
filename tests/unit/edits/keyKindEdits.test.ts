/**
 * What the edits do with key kinds (motion/interpolation.ts, issue 27), on the wavy motion thinned to
 * keys 0.2 s apart with every bone's keys cycling Bézier / Constant / Linear and the hips mixed:
 * - Speed ×2 and Reverse keep the kinds and play the same curve at the mapped times (1e-4°, 1e-6 m; Reverse
 *   on Bézier and Linear: a Constant key holds until the next one whichever way time runs, as in Blender);
 * - Mirror keeps the kinds, its tangents mirrored with the values: it plays as the mirror of the curve
 *   baked at 240 fps (within 0.05°, the bake's own error), where unmirrored tangents are degrees off;
 * - a key inserted inside a Bézier segment (K, a pose edit's first step) leaves the curve as it was
 *   (5e-3°; measured 1.7e-3°: the new key stores the normalized rotation); deleting a key keeps the others' kinds;
 * - Resample gives LINEAR keys.
 */
import { describe, expect, it } from 'vitest';
import type { Motion } from '../../../shared/motion/types';
import { boneChannel, durationOf, findChannel, withChannels } from '../../../shared/motion/types';
import { CUBIC, LINEAR, STEP, kindsOf, setKinds } from '../../../shared/motion/interpolation';
import { changeSpeed } from '../../../shared/edits/speed';
import { reverse } from '../../../shared/edits/reverse';
import { mirror } from '../../../shared/edits/mirror';
import { resample } from '../../../shared/edits/resample';
import { insertKeys } from '../../../shared/edits/insertKeys';
import { deleteKeys } from '../../../shared/edits/deleteKeys';
import { maxPoseDifference, timesAcross, wavyMotion, thinned } from './editTestKit';

const DEG = 180 / Math.PI;

function kindsMotion(): Motion {
  const base = wavyMotion({ duration: 3, fps: 30, travel: 1 });
  const channels = base.channels.map((c) => {
    const thin = thinned(c, 6);
    const keys = (kind: number) => [...Array(thin.times.length).keys()].filter((i) => [CUBIC, STEP, LINEAR][i % 3] === kind);
    return setKinds(setKinds(thin, keys(CUBIC), CUBIC), keys(STEP), STEP);
  });
  return withChannels(base, channels);
}

/** Probe times at every 1/97 of the motion and inside every segment, away from the steps' jumps. */
function probes(m: Motion): number[] {
  return timesAcross(m, 241).filter((t) => Math.abs(t * 5 - Math.round(t * 5)) > 0.02);
}

describe('edits and key kinds', () => {
  const m = kindsMotion();

  it('the test motion has all three kinds on its bones and a mixed hips track', () => {
    const k = kindsOf(boneChannel(m, 'spine', 'rotation')!)!;
    expect([...new Set(k)].sort()).toEqual([LINEAR, STEP, CUBIC]);
    expect(kindsOf(boneChannel(m, 'hips', 'translation')!)).toBeDefined();
  });

  it('Speed ×2 keeps kinds and plays the same curve at half the time', () => {
    const fast = changeSpeed(m, 2);
    expect(Array.from(kindsOf(boneChannel(fast, 'spine', 'rotation')!)!)).toEqual(Array.from(kindsOf(boneChannel(m, 'spine', 'rotation')!)!));
    const d = maxPoseDifference(fast, m, probes(fast), (t) => t * 2);
    expect(d.rotation * DEG).toBeLessThan(1e-4);
    expect(d.hips).toBeLessThan(1e-6);
  });

  it('Reverse plays Bézier and Linear segments backwards; a Constant key still holds until the next, as in Blender', () => {
    // Without STEP keys the reversed curve is the curve backwards.
    const noSteps = withChannels(m, m.channels.map((c) => setKinds(c, [...Array(c.times.length).keys()].filter((i) => kindsOf(c)![i] === STEP), LINEAR)));
    const back = reverse(noSteps);
    const D = durationOf(m);
    const d = maxPoseDifference(back, noSteps, probes(back), (t) => D - t);
    console.log(`reverse: ${(d.rotation * DEG).toExponential(2)}°, ${d.hips.toExponential(2)} m`);
    expect(d.rotation * DEG).toBeLessThan(1e-4);
    expect(d.hips).toBeLessThan(1e-6);
    // The kind of segment (old i -> i+1) is on the key that now starts it.
    const spine = kindsOf(boneChannel(noSteps, 'spine', 'rotation')!)!;
    const n = spine.length;
    const rev = kindsOf(boneChannel(back, 'spine', 'rotation')!)!;
    for (let j = 0; j < n - 1; j++) expect(rev[j]).toBe(spine[n - 2 - j]);
  });

  it('Mirror mirrors the tangents with the values', () => {
    const mirrored = mirror(m);
    const baked = mirror(resample(m, 240));
    const d = maxPoseDifference(mirrored, baked, probes(m));
    console.log(`mirror vs mirror of the 240 fps bake: ${(d.rotation * DEG).toFixed(4)}°, ${(d.hips * 1000).toFixed(4)} mm`);
    expect(d.rotation * DEG).toBeLessThan(0.05);
    expect(d.hips).toBeLessThan(1e-4);
    // The same with the tangents left unmirrored is far off: the check can fail.
    const stale = withChannels(
      mirrored,
      mirrored.channels.map((c) => {
        const src = m.channels.find((o) => o.times.length === c.times.length && kindsOf(o) && o.path === c.path);
        return src && c.inTangents ? { ...c, inTangents: src.inTangents, outTangents: src.outTangents } : c;
      }),
    );
    expect(maxPoseDifference(stale, baked, probes(m)).rotation * DEG).toBeGreaterThan(0.5);
  });

  it('a key inserted inside a Bézier segment leaves the curve; deleting a key keeps the other kinds', () => {
    const spine = boneChannel(m, 'spine', 'rotation')!;
    // Key 0 is CUBIC (0 s to 0.2 s): insert at 0.1 s.
    const inserted = insertKeys(m, [{ node: spine.node, path: 'rotation' }], 0.1);
    const c = findChannel(inserted, spine.node, 'rotation')!;
    expect(c.times.length).toBe(spine.times.length + 1);
    // Keys cycle CUBIC, STEP, LINEAR: the new key splits the first CUBIC segment.
    expect(Array.from(kindsOf(c)!.subarray(0, 4))).toEqual([CUBIC, CUBIC, STEP, LINEAR]);
    const d = maxPoseDifference(inserted, m, probes(m));
    console.log(`insert in a Bézier segment: ${(d.rotation * DEG).toExponential(2)}°`);
    // Measured 1.7e-3°: the new key stores the normalized rotation, its two sub-curves start from it.
    expect(d.rotation * DEG).toBeLessThan(5e-3);
    const deleted = deleteKeys(m, [{ node: spine.node, path: 'rotation', keys: [1] }]);
    const k = kindsOf(findChannel(deleted, spine.node, 'rotation')!)!;
    const old = kindsOf(spine)!;
    expect(Array.from(k)).toEqual([old[0], ...Array.from(old.subarray(2))]);
  });

  it('Resample gives LINEAR keys', () => {
    expect(resample(m, 30).channels.every((c) => kindsOf(c) === undefined)).toBe(true);
  });
});
