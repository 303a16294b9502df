/**
 * The contacts behind the timeline's contact strip (contactStrip.ts): pin-feet's contact detection
 * (shared/edits/pinFeet.ts, default thresholds) on a foot track (shared/edits/footTrack.ts) kept
 * between edits. An edit re-measures only the frames where it moved a foot, in slices of a few
 * milliseconds when the page is idle, so a long motion never blocks the page; an edit that moved no
 * foot reuses the contacts found before. A motion the motion file worker read has its whole track
 * measured there (takeFootFigures), so opening one costs the page only the contacts' judging.
 */
import type { Motion } from '../../shared/motion/types';
import { canPinFeet, contactsOfTrackSince, remapContactMemo, type ContactMemo, type FootContact } from '../../shared/edits/pinFeet';
import { measureFootFrames, planFootTrack, takeFootFigures, type FootTrack } from '../../shared/edits/footTrack';
import { durationOf } from '../../shared/motion/types';

/** Longest a measuring slice may run before yielding to the page (ms). */
const SLICE_MS = 8;
/** Frames measured between two clock reads. */
const BATCH = 128;

/**
 * Keeps the contacts of the studio's motion, measuring the foot track in slices; `onDone` runs when a
 * motion's contacts are known. A newer motion abandons the slice under way and starts from the last
 * complete track.
 */
export function contactFinder(onDone: (contacts: readonly FootContact[]) => void, later: (fn: () => void) => void = whenIdle): (motion: Motion) => void {
  // The latest track and the frame ranges of it not yet measured for its motion (a slice abandoned
  // for a newer motion): measured into the same arrays, so an edit allocates nothing.
  let last: FootTrack | undefined;
  let unfinished: [number, number][] = [];
  /**
   * The contacts of `last`'s arrays as they are now, once found; null while any frame is to be
   * measured. An edit that moved no foot (an arm, a head, undo and redo of those) re-measures no frame,
   * so its contacts are these: finding them again walked every frame (20 ms and its garbage on the
   * 10-minute motion, after every such edit).
   */
  let found: readonly FootContact[] | null = null;
  /**
   * What finding the contacts of `last`'s arrays left, and the frames measured into them since: the
   * next contacts are judged again only there (pinFeet.ts contactsOfTrackSince), not over every frame.
   */
  let memo: ContactMemo | null = null;
  let since: [number, number][] = [];
  let generation = 0;
  return (motion) => {
    const mine = ++generation;
    let ok = false;
    try {
      ok = durationOf(motion) > 0 && canPinFeet(motion);
    } catch { /* a damaged skeleton has no contacts to show */ }
    if (!ok) {
      last = undefined;
      unfinished = [];
      found = null;
      memo = null;
      onDone([]);
      return;
    }
    const stale = last ? unfinished.filter(([a, b]) => b > a).map(([a, b]) => [last!.times[a], last!.times[b - 1]] as [number, number]) : [];
    const { track, todo, kept } = planFootTrack(motion, last, { reuse: true, stale });
    // New arrays (another grid or skeleton), or frames to measure into these: the old contacts do not hold.
    if (track.ankleY !== last?.ankleY) {
      // Another grid sharing its ends with the last one (a range edit's blend keys, its undo): the
      // memo follows the shared frames and the ones in between are judged again.
      if (memo && kept && last && memo.ankleY === last.ankleY && !since.length) {
        memo = remapContactMemo(memo, track, kept.head, kept.tail);
        since = [[kept.head, track.times.length - kept.tail]];
      } else {
        memo = null;
        since = [];
      }
    }
    if (track.ankleY !== last?.ankleY || todo.length) found = null;
    for (const [a, b] of todo) since.push([a, b]);
    last = track;
    unfinished = todo.map(([a, b]) => [a, b]);
    const queue = unfinished;
    const slice = () => {
      if (mine !== generation) return;
      const until = performance.now() + SLICE_MS;
      try {
        while (queue.length && performance.now() < until) {
          const range = queue[0];
          const to = Math.min(range[1], range[0] + BATCH);
          measureFootFrames(track, range[0], to);
          range[0] = to;
          if (range[0] >= range[1]) queue.shift();
        }
        if (queue.length) {
          later(slice);
          return;
        }
        if (!found) {
          const r = contactsOfTrackSince(track, memo, since);
          memo = r.memo;
          since = [];
          found = r.detection.contacts;
        }
        onDone(found);
      } catch {
        last = undefined;
        unfinished = [];
        found = null;
        memo = null;
        since = [];
        onDone([]);
      }
    };
    // A motion just read in the worker: its whole track is measured there (motionFiles.ts); the
    // slices measure it here only if that fails.
    const offered = todo.length === 1 && todo[0][0] === 0 && todo[0][1] === track.times.length ? takeFootFigures(motion) : undefined;
    if (!offered) {
      later(slice);
      return;
    }
    offered.then((f) => {
      if (mine !== generation) return;
      if (f && f.ankleY.length === track.ankleY.length && f.toesY.length === track.toesY.length && f.ankleXZ.length === track.ankleXZ.length) {
        track.ankleY.set(f.ankleY);
        track.toesY.set(f.toesY);
        track.ankleXZ.set(f.ankleXZ);
        queue.length = 0;
      }
      later(slice);
    });
  };
}

/**
 * Runs `fn` when the page is idle (within a second at the latest): a strip is worth less than the first
 * frame of a motion, a drag or playback, so its measuring waits for them.
 */
function whenIdle(fn: () => void): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(() => fn(), { timeout: 1000 });
  else setTimeout(fn, 0);
}
