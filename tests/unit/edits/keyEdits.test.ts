/**
 * The dope sheet's key edits (moveKeys, deleteKeys, insertKeys, copy/paste keys, pastePose) on
 * generated motions and on the fixtures: values checked key by key, inputs never mutated, untouched
 * tracks shared, a flipped paste equal to the mirrored motion's pose.
 */
import { describe, expect, it } from 'vitest';
import type { Channel, Motion } from '../../../shared/motion/types';
import { boneChannel, componentsOf, durationOf, findChannel } from '../../../shared/motion/types';
import { moveKeys, moveKeysLimit } from '../../../shared/edits/moveKeys';
import { deleteKeys } from '../../../shared/edits/deleteKeys';
import { insertKeys } from '../../../shared/edits/insertKeys';
import { copyKeys, pasteKeys } from '../../../shared/edits/pasteKeys';
import { pastePose, poseAt } from '../../../shared/edits/pastePose';
import { mirror } from '../../../shared/edits/mirror';
import { sampleChannel } from '../../../shared/vrma/sample';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { MotionError } from '../../../shared/errors';
import { describeFixtures } from '../../../testkit/fixtures';
import { fixtureMotion, wavyMotion, withRotatedRest } from './editTestKit';

/** Deep snapshot of every channel, to prove an edit did not mutate its input. */
function snapshot(m: Motion): string[] {
  return m.channels.map((c) => `${c.node}/${c.path}:${Array.from(c.times).join(',')}|${Array.from(c.values).join(',')}`);
}

const at = (c: Channel, t: number) => Array.from(sampleChannel(c, t, new Float64Array(componentsOf(c.path))));
const keyValue = (c: Channel, i: number) => Array.from(c.values.subarray(i * componentsOf(c.path), (i + 1) * componentsOf(c.path)));

/** |dot| of two unit-scaled rotations, or 1 - the largest difference relative to the size (at least 1) for other paths. */
function closeness(a: number[], b: number[]): number {
  // Normalized: files store keys a little off unit length (test.vrma's are 0.999996 long).
  if (a.length === 4) return Math.abs(a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3]) / (Math.hypot(...a) * Math.hypot(...b));
  const scale = Math.max(1, ...a.map(Math.abs));
  return 1 - Math.max(...a.map((v, i) => Math.abs(v - b[i]))) / scale;
}

/** Times of the keys either side of t on a channel (the only interval a key at t can change). */
function around(c: Channel, t: number): [number, number] {
  const tf = Math.fround(t);
  let lo = -Infinity;
  let hi = Infinity;
  for (const x of c.times) {
    if (x < tf) lo = x;
    else if (x > tf) {
      hi = x;
      break;
    }
  }
  return [lo, hi];
}

function checkMove(motion: Motion) {
  const fps = 30;
  const [a, b] = motion.channels.filter((c) => c.times.length > 20);
  const selection = [
    { node: a.node, path: a.path, keys: [3, 4, 5, 6] },
    { node: b.node, path: b.path, keys: [10, 11] },
  ];
  const before = snapshot(motion);
  const dt = 10 / fps;
  const out = moveKeys(motion, selection, dt);
  expect(snapshot(motion)).toEqual(before);
  const na = findChannel(out, a.node, a.path)!;
  // Each moved key sits at its old time + dt with its value bit for bit.
  for (const k of [3, 4, 5, 6]) {
    const i = Array.from(na.times).indexOf(Math.fround(a.times[k] + dt));
    expect(i).toBeGreaterThanOrEqual(0);
    expect(keyValue(na, i)).toEqual(keyValue(a, k));
  }
  // The old times of moved keys are gone unless another moved key landed there; unselected keys kept.
  const movedTo = new Set([3, 4, 5, 6].map((k) => Math.fround(a.times[k] + dt)));
  for (let k = 0; k < a.times.length; k++) {
    if ([3, 4, 5, 6].includes(k)) continue;
    const i = Array.from(na.times).indexOf(a.times[k]);
    if (movedTo.has(a.times[k])) continue; // replaced by a moved key
    expect(i).toBeGreaterThanOrEqual(0);
    expect(keyValue(na, i)).toEqual(keyValue(a, k));
  }
  expect(na.times.length).toBe(a.times.length - [...movedTo].filter((t) => Array.from(a.times).some((x, k) => x === t && ![3, 4, 5, 6].includes(k))).length);
  for (let i = 1; i < na.times.length; i++) expect(na.times[i]).toBeGreaterThan(na.times[i - 1]);
  // Untouched tracks are the same objects.
  const untouched = out.channels.filter((c) => c !== na && !(c.node === b.node && c.path === b.path));
  for (const c of untouched) expect(motion.channels).toContain(c);
  // Written and read back, still valid.
  expect(readVrma(writeVrma(out)).channels.length).toBe(out.channels.length);
  return out;
}

describe('moveKeys', () => {
  it('moves keys of two tracks by 10 frames, values bit-exact, others shared (generated, rotated rest)', () => {
    checkMove(wavyMotion());
    checkMove(withRotatedRest(wavyMotion({ seed: 11 })));
  });
  it('refuses to move keys before 0 s and gives the limit', () => {
    const m = wavyMotion();
    const c = m.channels[0];
    const sel = [{ node: c.node, path: c.path, keys: [2, 3] }];
    expect(moveKeysLimit(m, sel)).toBeCloseTo(-c.times[2], 7);
    expect(() => moveKeys(m, sel, -1)).toThrow(MotionError);
    expect(() => moveKeys(m, [{ node: c.node, path: c.path, keys: [99999] }], 0.1)).toThrow(/does not exist/);
    expect(moveKeys(m, sel, 0)).toBe(m);
  });
  it('moving back and forth restores the track when no key was overwritten', () => {
    const m = wavyMotion();
    const c = m.channels[1];
    const keys = Array.from({ length: c.times.length }, (_, i) => i);
    const out = moveKeys(moveKeys(m, [{ node: c.node, path: c.path, keys }], 0.5), [{ node: c.node, path: c.path, keys }], -0.5);
    const back = findChannel(out, c.node, c.path)!;
    expect(Array.from(back.values)).toEqual(Array.from(c.values));
    for (let i = 0; i < c.times.length; i++) expect(Math.abs(back.times[i] - c.times[i])).toBeLessThan(1e-6);
  });
});

describe('deleteKeys', () => {
  it('drops the selected keys only; a track without keys is removed', () => {
    const m = wavyMotion();
    const before = snapshot(m);
    const c = m.channels[0];
    const d = m.channels[2];
    const out = deleteKeys(m, [
      { node: c.node, path: c.path, keys: [0, 5, 5, 7] },
      { node: d.node, path: d.path, keys: Array.from({ length: d.times.length }, (_, i) => i) },
    ]);
    expect(snapshot(m)).toEqual(before);
    const nc = findChannel(out, c.node, c.path)!;
    expect(nc.times.length).toBe(c.times.length - 3);
    expect(nc.times[0]).toBe(c.times[1]);
    expect(Array.from(nc.times)).not.toContain(c.times[5]);
    expect(keyValue(nc, 4)).toEqual(keyValue(c, 6)); // keys 1,2,3,4,6: the fifth is old key 6
    expect(findChannel(out, d.node, d.path)).toBeUndefined();
    expect(out.channels.length).toBe(m.channels.length - 1);
    for (const x of out.channels) if (x !== nc) expect(m.channels).toContain(x);
  });
});

describe('insertKeys', () => {
  it('adds a key with the interpolated value; the motion looks the same', () => {
    const m = withRotatedRest(wavyMotion());
    const before = snapshot(m);
    const rot = boneChannel(m, 'leftUpperArm', 'rotation')!;
    const hips = boneChannel(m, 'hips', 'translation')!;
    const t = 1.2345;
    const out = insertKeys(m, [{ node: rot.node, path: 'rotation' }, { node: hips.node, path: 'translation' }], t);
    expect(snapshot(m)).toEqual(before);
    const nr = findChannel(out, rot.node, 'rotation')!;
    expect(nr.times.length).toBe(rot.times.length + 1);
    const i = Array.from(nr.times).indexOf(Math.fround(t));
    expect(i).toBeGreaterThan(0);
    expect(closeness(keyValue(nr, i), at(rot, Math.fround(t)))).toBeGreaterThan(1 - 1e-6);
    for (const s of [0.3, 1.2, 1.25, 3.9]) expect(closeness(at(nr, s), at(rot, s))).toBeGreaterThan(1 - 1e-6);
    const nh = findChannel(out, hips.node, 'translation')!;
    expect(nh.times.length).toBe(hips.times.length + 1);
    // On an existing key nothing changes.
    expect(insertKeys(m, [{ node: rot.node, path: 'rotation' }], rot.times[4])).toBe(m);
  });
  it('an unkeyed bone gets one key holding its rest rotation', () => {
    const m = wavyMotion();
    const node = m.humanoid.boneToNode.rightHand!;
    expect(findChannel(m, node, 'rotation')).toBeUndefined();
    const out = insertKeys(m, [{ node, path: 'rotation' }], 2);
    const c = findChannel(out, node, 'rotation')!;
    expect(Array.from(c.times)).toEqual([2]);
    const rest = ((m.gltf.nodes as { rotation?: number[] }[])[node].rotation ?? [0, 0, 0, 1]).map(Math.fround);
    expect(Array.from(c.values)).toEqual(rest);
    expect(() => insertKeys(m, [{ node, path: 'rotation' }], 99)).toThrow(/outside the motion/);
  });
});

describe('copyKeys / pasteKeys', () => {
  it('pastes copied keys at another time, values bit-exact, relative timing kept', () => {
    const m = wavyMotion();
    const c = m.channels[3];
    const clip = copyKeys(m, [{ node: c.node, path: c.path, keys: [6, 8, 9] }]);
    const out = pasteKeys(m, clip, 3);
    const nc = findChannel(out, c.node, c.path)!;
    for (const k of [6, 8, 9]) {
      const i = Array.from(nc.times).indexOf(Math.fround(3 + (c.times[k] - c.times[6])));
      expect(i).toBeGreaterThan(0);
      expect(keyValue(nc, i)).toEqual(keyValue(c, k));
    }
    // Pasted onto existing frame times: the count stays, the old keys at those times are replaced.
    expect(nc.times.length).toBe(c.times.length);
  });
});

function checkPastePose(m: Motion, t1: number, t2: number) {
  const before = snapshot(m);
  const out = pastePose(m, t1, t2);
  expect(snapshot(m)).toEqual(before);
  for (const c of m.channels) {
    const n = findChannel(out, c.node, c.path)!;
    expect(closeness(at(n, t2), at(c, t1))).toBeGreaterThanOrEqual(0.99999);
  }
  // Flipped: the pose at t2 equals the mirrored motion's pose at t1, track by track.
  const flipped = pastePose(m, t1, t2, { mirrored: true });
  const mirrored = mirror(m);
  for (const c of mirrored.channels) {
    const n = findChannel(flipped, c.node, c.path)!;
    expect(closeness(at(n, t2), at(c, t1))).toBeGreaterThanOrEqual(0.99999);
  }
  // Outside the key interval around t2 the motion is unchanged (float32 rounding: 1e-6).
  const d = durationOf(m);
  for (const c of m.channels) {
    const n = findChannel(out, c.node, c.path)!;
    const [lo, hi] = around(c, t2);
    for (const s of [0, d * 0.1, d * 0.9, d].filter((s) => s <= lo || s >= hi)) expect(closeness(at(n, s), at(c, s))).toBeGreaterThan(1 - 1e-6);
  }
  return { out, flipped };
}

describe('pastePose', () => {
  it('pastes the pose at 1 s to 2 s; flipped equals the mirror (generated, rotated rest)', () => {
    checkPastePose(wavyMotion(), 1, 2);
    checkPastePose(withRotatedRest(wavyMotion({ seed: 5 })), 1.01, 2.5);
  });
  it('a partner bone without a track gets the pasted key between rest keys', () => {
    const m = wavyMotion({ bones: ['hips', 'spine', 'leftUpperArm'] });
    const right = m.humanoid.boneToNode.rightUpperArm!;
    const out = pastePose(m, 1, 2, { mirrored: true });
    const c = findChannel(out, right, 'rotation')!;
    expect(c.times.length).toBe(3);
    expect(c.times[1]).toBe(2);
    expect(poseAt(m, 1).channels.every((x) => x.times.length === 1)).toBe(true);
  });
});

describeFixtures('key edits on the fixtures', () => {
  for (const name of ['test.vrma', 'idle_loop.vrma', 'hips_spine_twisting.vrma']) {
    it(`${name}: move, delete, insert, paste pose (and flipped)`, () => {
      const m = fixtureMotion(name);
      const d = durationOf(m);
      if (m.channels.filter((c) => c.times.length > 20).length >= 2) checkMove(m);
      const c = m.channels.find((x) => x.times.length > 3)!;
      const del = deleteKeys(m, [{ node: c.node, path: c.path, keys: [1] }]);
      expect(findChannel(del, c.node, c.path)!.times.length).toBe(c.times.length - 1);
      const ins = insertKeys(m, [{ node: c.node, path: c.path }], d * 0.37);
      expect(findChannel(ins, c.node, c.path)!.times.length).toBe(c.times.length + 1);
      checkPastePose(m, d * 0.25, d * 0.6);
    });
  }
});
