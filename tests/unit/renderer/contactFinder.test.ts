/**
 * The contact strip's finder (renderer/timeline/contactFinder.ts) on a real capture: after each motion
 * change it delivers exactly the contacts pin-feet's detection finds on that motion (deep equality,
 * tolerance 0), and an edit that moved no foot (an arm edit, its undo and redo) reuses the contacts it
 * found before instead of walking every frame again (the walk is counted through a pass-through
 * wrapper of the real contactsOfTrackSince); a thigh edit finds them again.
 */
import { expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { convertToMotion } from '../../../shared/formats';
import type { Motion } from '../../../shared/motion/types';
import type { FootContact } from '../../../shared/edits/pinFeet';
import { detectFootContacts } from '../../../shared/edits/pinFeet';
import { applyPoseDelta, frameTimes } from '../../../shared/edits/poseDelta';
import { fromAxisAngle } from '../../../shared/math/quat';
import { contactFinder } from '../../../renderer/timeline/contactFinder';
import { createFootTrack, footChannels, footTrackOn, offerFootFigures, takeFootFigures } from '../../../shared/edits/footTrack';

const walks = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../shared/edits/pinFeet', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../shared/edits/pinFeet')>();
  return {
    ...real,
    contactsOfTrackSince: (...args: Parameters<typeof real.contactsOfTrackSince>) => {
      walks.count++;
      return real.contactsOfTrackSince(...args);
    },
  };
});

const load = (f: string): Motion => convertToMotion(f, new Uint8Array(readFileSync(join(FIXTURES_DIR, f))));

describeFixtures('contact finder', () => {
  it('cmu_12_01_walk: the contacts of every motion; an arm edit, undo and redo reuse them, a thigh edit finds them again', () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const t = frameTimes(m)[240];
    const turn = fromAxisAngle([0, 0, 1], 0.35);
    const arm = applyPoseDelta(m, 'leftUpperArm', turn, t, 0.3);
    const leg = applyPoseDelta(arm, 'leftUpperLeg', turn, t, 0.3);

    const queue: (() => void)[] = [];
    const delivered: (readonly FootContact[])[] = [];
    const find = contactFinder((c) => delivered.push(c), (fn) => queue.push(fn));
    const show = (motion: Motion) => {
      find(motion);
      while (queue.length) queue.shift()!();
      return delivered[delivered.length - 1];
    };

    const opened = show(m);
    expect(opened.length).toBeGreaterThan(4); // a walk: both feet stand several times
    expect(opened).toEqual(detectFootContacts(m).contacts);
    expect(walks.count).toBe(1);

    // The arm edit, its undo and its redo: the same contacts, not found again.
    for (const motion of [arm, m, arm]) {
      const c = show(motion);
      expect(c).toBe(opened);
      expect(c).toEqual(detectFootContacts(motion).contacts);
    }
    expect(walks.count).toBe(1);

    // A thigh edit moves the left foot: found again, and they are the edited motion's.
    const edited = show(leg);
    expect(walks.count).toBe(2);
    expect(edited).toEqual(detectFootContacts(leg).contacts);
    // Its undo re-measures the frames it changed back: found again too, equal to the arm edit's.
    expect(show(arm)).toEqual(detectFootContacts(arm).contacts);
    expect(walks.count).toBe(3);
  }, 60_000);
});

describeFixtures('contact finder, a motion read in the worker', () => {
  it("cmu_12_01_walk: the foot channels alone (what the worker keeps) measure the whole track bit for bit; offered, the finder takes them and delivers detection's contacts", async () => {
    const m = load('bvh/cmu_12_01_walk.bvh');
    const lite: Motion = { ...m, channels: footChannels(m).map((c) => ({ ...c, times: c.times.slice(), values: c.values.slice() })) };
    expect(lite.channels.length).toBeLessThan(m.channels.length);
    const figures = footTrackOn(lite, frameTimes(m).slice());
    const full = createFootTrack(m);
    expect(Array.from(figures.ankleY)).toEqual(Array.from(full.ankleY));
    expect(Array.from(figures.toesY)).toEqual(Array.from(full.toesY));
    expect(Array.from(figures.ankleXZ)).toEqual(Array.from(full.ankleXZ));
    const expected = detectFootContacts(m).contacts;
    expect(expected.length).toBeGreaterThan(4);
    for (const offer of ['the figures', 'nothing (the worker failed)', 'figures of another motion'] as const) {
      const delivered: (readonly FootContact[])[] = [];
      const queue: (() => void)[] = [];
      const find = contactFinder((c) => delivered.push(c), (fn) => queue.push(fn));
      const wrong = { ankleY: full.ankleY.map(() => Infinity), toesY: full.toesY.map(() => Infinity), ankleXZ: full.ankleXZ };
      offerFootFigures(m, Promise.resolve(offer === 'the figures' ? figures : offer === 'nothing (the worker failed)' ? undefined : wrong));
      find(m);
      let slices = 0;
      for (let i = 0; i < 20 && !delivered.length; i++) {
        await Promise.resolve();
        while (queue.length) {
          queue.shift()!();
          slices++;
        }
      }
      if (offer === 'figures of another motion') {
        // Taken as they came (nothing measured here): no foot ever near the ground, so no contact.
        expect(delivered).toEqual([[]]);
      } else {
        expect(delivered).toEqual([expected]);
      }
      // Taken, only the judging's one slice; not offered, measured here in 8 ms slices.
      if (offer !== 'nothing (the worker failed)') expect(slices).toBe(1);
      expect(takeFootFigures(m)).toBeUndefined();
    }
  }, 60_000);
});
