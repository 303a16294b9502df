/**
 * A .vrma read in the motion file worker comes back as views of the page's own bytes
 * (renderer/app/motionFileViews.ts), and what the page measures after opening comes from the worker
 * (renderer/app/motionMeasures.ts). On real files (the fixtures' .vrma and a generated 2-minute
 * capture): the motion made of the page's bytes equals the one the reader gives, bit for bit, with the
 * shared time array still one array; a motion whose tracks are not all views (a baked or copied
 * track) is not sent as views; and the worker's measures equal the page's own owners' figures
 * (tolerance 0): hasOutliers, channelAmount of every rotation track, the whole foot track.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES_DIR, HAS_FIXTURES } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import type { Motion } from '../../../shared/motion/types';
import { makeLongMotion } from '../../../testkit/longMotion';
import { asViews, onBytes } from '../../../renderer/app/motionFileViews';
import { measuresOf } from '../../../renderer/app/motionMeasures';
import { findOutlierFrames } from '../../../shared/edits/fixOutliers';
import { channelAmount } from '../../../shared/edits/motionAmount';
import { createFootTrack } from '../../../shared/edits/footTrack';

const bits = (a: ArrayBufferView) => Buffer.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

const files: [string, () => Uint8Array][] = [
  ['generated 2 min at 60 fps', () => writeVrma(makeLongMotion(120, 60))],
  ...(HAS_FIXTURES ? ['test.vrma', 'idle_loop.vrma', 'hips_spine_twisting.vrma'].map((f) => [f, () => new Uint8Array(readFileSync(join(FIXTURES_DIR, 'vrma', f)))] as [string, () => Uint8Array]) : []),
];

/** The worker's side: a structured clone of the page's bytes (what postMessage gives it), read there. */
function readInWorker(bytes: Uint8Array): { motion: Motion; clone: Uint8Array } {
  const clone = structuredClone(bytes);
  return { motion: readVrma(clone), clone };
}

describe('a .vrma sent back as views of the page bytes', () => {
  it.each(files)('%s: every track a view; the page motion equals the read one bit for bit', (_, make) => {
    const bytes = make();
    const before = Buffer.from(bytes);
    const { motion, clone } = readInWorker(bytes);
    // The reader leaves the bytes as they were (the page's copy stays the worker's twin).
    expect(Buffer.from(clone).equals(before)).toBe(true);
    const wire = asViews(motion, clone.buffer);
    if (!wire) {
      // Only a motion with a track that is not a plain view (baked keys, tangents) may refuse.
      expect(motion.channels.some((c) => c.kinds || c.inTangents || c.times.buffer !== clone.buffer || c.values.buffer !== clone.buffer)).toBe(true);
      return;
    }
    // What crosses back: no array at all.
    expect(JSON.stringify(wire.channels).length).toBeLessThan(200 * motion.channels.length);
    const got = onBytes(structuredClone(wire), bytes.buffer);
    expect(got.channels).toHaveLength(motion.channels.length);
    got.channels.forEach((c, i) => {
      const r = motion.channels[i];
      expect([c.node, c.path]).toEqual([r.node, r.path]);
      expect(c.times.buffer).toBe(bytes.buffer);
      expect(bits(c.times).equals(bits(r.times))).toBe(true);
      expect(bits(c.values).equals(bits(r.values))).toBe(true);
    });
    // Tracks sharing one time array in the read motion share one here.
    const shared = (m: Motion) => new Set(m.channels.map((c) => c.times)).size;
    expect(shared(got)).toBe(shared(motion));
    expect(Buffer.from(writeVrma(got)).equals(Buffer.from(writeVrma(motion)))).toBe(true);
  });

  it('the generated capture is sent as views, with one time array for its tracks', () => {
    const bytes = writeVrma(makeLongMotion(120, 60));
    const { motion, clone } = readInWorker(bytes);
    const wire = asViews(motion, clone.buffer)!;
    expect(wire).toBeDefined();
    expect(new Set(onBytes(wire, bytes.buffer).channels.map((c) => c.times)).size).toBe(1);
  });

  it('a track that is not a view of the bytes (a copy, baked keys): not sent as views', () => {
    const bytes = writeVrma(makeLongMotion(20, 60));
    const { motion, clone } = readInWorker(bytes);
    expect(asViews(motion, clone.buffer)).toBeDefined();
    const copied = { ...motion, channels: motion.channels.map((c, i) => (i === 3 ? { ...c, values: c.values.slice() } : c)) };
    expect(asViews(copied, clone.buffer)).toBeUndefined();
    const stepped = { ...motion, channels: motion.channels.map((c, i) => (i === 3 ? { ...c, kinds: new Uint8Array(c.times.length).fill(1) } : c)) };
    expect(asViews(stepped, clone.buffer)).toBeUndefined();
    // Views of another buffer (the page's own, not the worker's copy) are not views of this one.
    expect(asViews(motion, bytes.buffer)).toBeUndefined();
  });
});

describe("the worker's measures of a read motion are the page's figures", () => {
  it.each(files)('%s: outliers, every rotation track amount and the foot track, tolerance 0', (_, make) => {
    const { motion } = readInWorker(make());
    const m = measuresOf(motion);
    // The page's own answers, from a second read (no cache shared with the first).
    const page = readVrma(make());
    const found = findOutlierFrames(page);
    expect(m.outliers).toBe(!!found && (found.first > 0 || found.last < found.frames.length - 1));
    expect(m.amounts).toHaveLength(page.channels.length);
    page.channels.forEach((c, i) => {
      const a = m.amounts![i];
      if (c.path !== 'rotation' || c.times.length <= 1) expect(a).toBeNull();
      else expect(bits(a!).equals(bits(channelAmount(c)))).toBe(true);
    });
    let track: ReturnType<typeof createFootTrack> | undefined;
    try {
      track = createFootTrack(page);
    } catch {
      track = undefined;
    }
    if (!m.foot) return;
    expect(track).toBeDefined();
    for (const k of ['ankleY', 'toesY', 'ankleXZ'] as const) expect(bits(m.foot[k]).equals(bits(track![k]))).toBe(true);
  });

  it('the generated capture has a foot track and a curve that moves', () => {
    const m = measuresOf(readVrma(writeVrma(makeLongMotion(60, 60))));
    expect(m.foot?.ankleY.length).toBe(2 * 3601);
    expect(Math.max(...m.amounts!.flatMap((a) => (a ? [Math.max(...a)] : [])))).toBeGreaterThan(0.01);
  });
});
