/**
 * The foot track behind the timeline's contact strip (shared/edits/footTrack.ts) on real captures:
 * measured with only the foot chains it equals whole-skeleton FK bit for bit; after an edit it is
 * re-measured only where a channel that moves a foot changed, and the incremental track (and the
 * contacts found from it) equal a fresh measurement of the edited motion exactly (tolerance 0).
 */
import { expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { convertToMotion } from '../../../shared/formats';
import type { Motion } from '../../../shared/motion/types';
import { contactsOfTrack, contactsOfTrackSince, detectFootContacts, posesAt, remapContactMemo } from '../../../shared/edits/pinFeet';
import { changedSpan, createFootTrack, footTrackFromPoses, measureFootFrames, planFootTrack, type FootTrack } from '../../../shared/edits/footTrack';
import { applyPoseDelta, frameTimes } from '../../../shared/edits/poseDelta';
import { fromAxisAngle } from '../../../shared/math/quat';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { editPartBlended, RANGE_BLEND } from '../../../shared/edits/rangeEdit';
import { reverse } from '../../../shared/edits/reverse';
import { moveKeys } from '../../../shared/edits/moveKeys';
import { KeySelectionState } from '../../../renderer/timeline/dopeSheetSelection';

const load = (f: string): Motion => convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES_DIR, f))));
const same = (a: FootTrack, b: FootTrack) => {
  expect(Array.from(a.ankleY)).toEqual(Array.from(b.ankleY));
  expect(Array.from(a.toesY)).toEqual(Array.from(b.toesY));
  expect(Array.from(a.ankleXZ)).toEqual(Array.from(b.ankleXZ));
};
const update = (prev: FootTrack, next: Motion) => {
  const { track, todo } = planFootTrack(next, prev);
  for (const [a, b] of todo) measureFootFrames(track, a, b);
  return { track, frames: todo.reduce((s, [a, b]) => s + b - a, 0) };
};

describeFixtures('foot track', () => {
  for (const file of ['bvh/cmu_12_01_walk.bvh', 'bvh/pirouette.bvh', 'vmd/mmdagent/mei_greeting.vmd']) {
    it(`${file}: the foot chains alone give whole-skeleton FK's figures and contacts, bit for bit`, () => {
      const m = load(file);
      const times = frameTimes(m);
      const full = footTrackFromPoses(m, times, posesAt(m, times));
      const track = createFootTrack(m);
      same(track, full);
      expect(contactsOfTrack(track)).toEqual(detectFootContacts(m, {}, posesAt(m, times)));
    }, 30_000);
  }

  it('cmu_12_01_walk: contacts found again from the last finding (only the changed frames judged) equal a fresh finding after each leg edit', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const grid = frameTimes(m);
    let track = createFootTrack(m);
    let memo = contactsOfTrackSince(track, null, []).memo;
    let motion = m;
    let local = 0;
    // Bone, where (a fraction of the motion), how far (rad).
    const edits: [Parameters<typeof applyPoseDelta>[1], number, number][] = [['leftUpperLeg', 0.3, 0.35], ['rightUpperLeg', 0.6, -0.3], ['leftUpperLeg', 0.3, 0.5], ['leftFoot', 0.85, 1.2], [
      'rightLowerLeg',
      0.1,
      0.8,
    ]];
    for (const [bone, at, angle] of edits) {
      const next = applyPoseDelta(motion, bone, fromAxisAngle([0, 0, 1], angle), grid[Math.floor(at * (grid.length - 1))], 0.3);
      const { track: into, todo } = planFootTrack(next, track, { reuse: true });
      expect(into.ankleY).toBe(track.ankleY);
      expect(todo.length).toBeGreaterThan(0);
      for (const [a, b] of todo) measureFootFrames(into, a, b);
      const standing = memo.standing[0];
      const r = contactsOfTrackSince(into, memo, todo);
      // Judged again in place only when both floors stayed (else every frame, into new arrays).
      if (r.memo.standing[0] === standing) local++;
      expect(r.detection).toEqual(detectFootContacts(next));
      ({ memo } = r);
      track = into;
      motion = next;
    }
    expect(local).toBeGreaterThan(0);
    expect(memo.floor.value).toBe(detectFootContacts(motion).floor);

    // A thigh edit between two frames inserts a key time: another grid, new arrays; the memo follows
    // the frames both grids share (remapContactMemo) and the contacts are still a fresh finding's.
    const k = Math.floor(0.45 * (grid.length - 1));
    const between = applyPoseDelta(motion, 'leftUpperLeg', fromAxisAngle([0, 0, 1], 0.2), (grid[k] + grid[k + 1]) / 2, 0.2);
    const plan = planFootTrack(between, track, { reuse: true });
    expect(plan.track.times.length).toBe(track.times.length + 1);
    expect(plan.kept!.head).toBeLessThanOrEqual(k + 1);
    expect(plan.kept!.head + plan.kept!.tail).toBe(track.times.length);
    for (const [a, b] of plan.todo) measureFootFrames(plan.track, a, b);
    const remapped = remapContactMemo(memo, plan.track, plan.kept!.head, plan.kept!.tail);
    const r = contactsOfTrackSince(plan.track, remapped, [...plan.todo, [plan.kept!.head, plan.track.times.length - plan.kept!.tail]]);
    expect(r.detection).toEqual(detectFootContacts(between));
    expect(r.detection.contacts.length).toBeGreaterThan(4);
  }, 60_000);

  it('cmu_12_01_walk: an arm edit re-measures nothing, a thigh edit only the frames between its changed keys', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const grid = frameTimes(m);
    const base = createFootTrack(m);
    const turn = fromAxisAngle([0, 0, 1], 0.35);
    const t = grid[240]; // on a frame, so the edit adds no key time

    const arm = applyPoseDelta(m, 'leftUpperArm', turn, t, 0.3);
    const a = update(base, arm);
    expect(a.frames).toBe(0);
    expect(a.track.ankleY).toBe(base.ankleY); // shared, not copied
    same(a.track, createFootTrack(arm));

    const leg = applyPoseDelta(arm, 'leftUpperLeg', turn, t, 0.3);
    const l = update(a.track, leg);
    // ±0.3 s of falloff at 120 fps is 73 frames, plus the neighbouring key on each side.
    expect(l.frames).toBeGreaterThan(60);
    expect(l.frames).toBeLessThanOrEqual(80);
    const fresh = createFootTrack(leg);
    same(l.track, fresh);
    expect(contactsOfTrack(l.track)).toEqual(detectFootContacts(leg));
    // The previous track is left whole (it is an undo away).
    same(a.track, createFootTrack(arm));
    // And the thigh edit moved the left ankle (so the check above is not of an unchanged track).
    let moved = 0;
    for (let i = 0; i < base.ankleXZ.length; i++) moved = Math.max(moved, Math.abs(fresh.ankleXZ[i] - base.ankleXZ[i]));
    expect(moved).toBeGreaterThan(0.01);
  }, 30_000);

  it('cmu_12_01_walk: keys of the legs moved in time re-measure only around the move', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const grid = frameTimes(m);
    const sel = new KeySelectionState();
    for (const bone of ['leftUpperLeg', 'leftLowerLeg'] as const) {
      const c = boneChannel(m, bone, 'rotation')!;
      sel.selectTimeSpan(`${c.node}/${c.path}`, c.times, grid[200], grid[260]);
    }
    const moved = moveKeys(m, sel.toKeySelection(), 12 / 120);
    const r = update(createFootTrack(m), moved);
    expect(r.frames).toBeGreaterThan(60);
    expect(r.frames).toBeLessThan(grid.length / 3);
    same(r.track, createFootTrack(moved));
    expect(contactsOfTrack(r.track)).toEqual(detectFootContacts(moved));
  }, 30_000);

  it('cmu_12_01_walk: measured into the same arrays (reuse), with a measuring abandoned half way for the next edit', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const grid = frameTimes(m);
    const turn = fromAxisAngle([1, 0, 0], 0.4);
    const first = applyPoseDelta(m, 'leftUpperLeg', turn, grid[100], 0.4);
    const second = applyPoseDelta(first, 'rightUpperLeg', turn, grid[400], 0.2);
    const base = createFootTrack(m);
    const a = planFootTrack(first, base, { reuse: true });
    expect(a.track.ankleY).toBe(base.ankleY); // the same arrays: nothing allocated
    // Only half of the first edit's frames get measured before the second edit arrives.
    const [from, to] = a.todo[0];
    const half = Math.floor((from + to) / 2);
    measureFootFrames(a.track, from, half);
    const stale: [number, number][] = [[grid[half], grid[to - 1]]];
    const b = planFootTrack(second, a.track, { reuse: true, stale });
    for (const [x, y] of b.todo) measureFootFrames(b.track, x, y);
    same(b.track, createFootTrack(second));
    expect(contactsOfTrack(b.track)).toEqual(detectFootContacts(second));
    // Without the stale span the half left over would be wrong: the check above can fail.
    const a2 = planFootTrack(first, createFootTrack(m), { reuse: true });
    measureFootFrames(a2.track, from, half);
    const c = planFootTrack(second, a2.track, { reuse: true });
    for (const [x, y] of c.todo) measureFootFrames(c.track, x, y);
    expect(Array.from(c.track.ankleXZ)).not.toEqual(Array.from(createFootTrack(second).ankleXZ));
  }, 30_000);

  it("cmu_12_01_walk: a range edit that changes the grid, its undo and redo move the reused track within its arrays; figures and contacts are a fresh finding's", () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const d = durationOf(m);
    const first = planFootTrack(m, undefined, { reuse: true });
    for (const [a, b] of first.todo) measureFootFrames(first.track, a, b);
    let track = first.track;
    let memo = contactsOfTrackSince(track, null, []).memo;
    let grew = 0;
    // Near the start (the head is the shorter side to move) and near the end (the tail).
    for (const at of [0.2, 0.7]) {
      const reversed = editPartBlended(m, { from: at * d, to: at * d + 1 }, reverse);
      for (const next of [reversed, m, reversed, m]) {
        if (frameTimes(next).length !== track.times.length) grew++;
        const plan = planFootTrack(next, track, { reuse: true });
        // The same buffers (nothing allocated), and only the stretch between the shared ends measured.
        expect(plan.track.ankleY.buffer).toBe(track.ankleY.buffer);
        const t = plan.track.times;
        const seconds = plan.todo.reduce((s, [a, b]) => s + t[b - 1] - t[a], 0);
        expect(seconds).toBeGreaterThan(0.5);
        // The reversed second and its blends (RANGE_BLEND, 0.1 s each side), and a frame (1/120 s) each side.
        expect(seconds).toBeLessThanOrEqual(1 + 2 * RANGE_BLEND + 2 / 120 + 1e-6);
        for (const [a, b] of plan.todo) measureFootFrames(plan.track, a, b);
        same(plan.track, createFootTrack(next));
        const since = plan.kept ? [...plan.todo, [plan.kept.head, plan.track.times.length - plan.kept.tail] as [number, number]] : plan.todo;
        const r = contactsOfTrackSince(plan.track, plan.kept ? remapContactMemo(memo, plan.track, plan.kept.head, plan.kept.tail) : memo, since);
        expect(r.detection).toEqual(detectFootContacts(next));
        ({ memo } = r);
        track = plan.track;
      }
    }
    // The reverse changed the grid each time (else this tested nothing new).
    expect(grew).toBe(8);
  }, 60_000);

  it('cmu_12_01_walk: an edit between two frames adds a key time to the grid: that one frame is measured', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const grid = frameTimes(m);
    const t = (grid[100] + grid[101]) / 2;
    const arm = applyPoseDelta(m, 'rightUpperArm', fromAxisAngle([1, 0, 0], 0.3), t, 0.2);
    expect(frameTimes(arm).length).toBe(grid.length + 1);
    const a = update(createFootTrack(m), arm);
    expect(a.frames).toBe(1);
    same(a.track, createFootTrack(arm));
    expect(contactsOfTrack(a.track)).toEqual(detectFootContacts(arm));
  }, 30_000);
});

it('changedSpan: the first and last changed key widened to their neighbours; ends hold to infinity', () => {
  const times = new Float32Array([0, 1, 2, 3, 4]);
  const values = new Float32Array([0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
  const a = { node: 0, path: 'translation' as const, times, values };
  expect(changedSpan(a, a)).toBeUndefined();
  expect(changedSpan(a, { ...a, values: values.slice() })).toBeUndefined();
  const v = values.slice();
  v[6] = 99; // key 2
  expect(changedSpan(a, { ...a, values: v })).toEqual([1, 3]);
  const w = values.slice();
  w[0] = 5; // key 0
  expect(changedSpan(a, { ...a, values: w })).toEqual([-Infinity, 1]);
  expect(changedSpan(a, undefined)).toEqual([-Infinity, Infinity]);
  // The last key deleted: from the key before it on; a middle key deleted (or moved): between its neighbours.
  expect(changedSpan(a, { ...a, times: new Float32Array([0, 1, 2, 3]), values: values.slice(0, 12) })).toEqual([3, Infinity]);
  expect(changedSpan(a, { ...a, times: new Float32Array([0, 1, 3, 4]), values: Float32Array.from([...values.slice(0, 6), ...values.slice(9)]) })).toEqual([1, 3]);
  const moved = { ...a, times: new Float32Array([0, 1, 2.5, 3, 4]) };
  expect(changedSpan(a, moved)).toEqual([1, 3]);
  expect(changedSpan(a, { ...a, path: 'rotation' as const })).toEqual([-Infinity, Infinity]);
});
