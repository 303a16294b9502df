/**
 * The autosave worker's copy of a long motion (renderer/platform/autosaveBuffers.ts). A .vrma read
 * whole leaves every track a view of the file's bytes, so posting one track cloned the whole file;
 * here: the buffer goes in 16 MiB slices, the tracks as references into it, and what a message
 * carries is measured as the distinct ArrayBuffers a structured clone would copy.
 */
import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { writeVrma } from '../../../shared/vrma/write';
import { readVrma } from '../../../shared/vrma/read';
import type { Channel } from '../../../shared/motion/types';
import { BufferShipper, BufferStore, CHUNK_BYTES } from '../../../renderer/platform/autosaveBuffers';

/** Bytes a structured clone of `v` copies: each distinct ArrayBuffer once, whole. */
function clonedBytes(v: unknown, seen = new Set<ArrayBufferLike>()): number {
  if (ArrayBuffer.isView(v)) return seen.has(v.buffer) ? 0 : (seen.add(v.buffer), v.buffer.byteLength);
  if (v instanceof ArrayBuffer) return seen.has(v) ? 0 : (seen.add(v), v.byteLength);
  if (v && typeof v === 'object') return Object.values(v).reduce((n: number, x) => n + clonedBytes(x, seen), 0);
  return 0;
}
const bits = (a: Float32Array) => Buffer.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));

describe('sending a long motion to the autosave worker', () => {
  // 5 min at 60 fps: a 17 MB file, every track a view of it (as the reader leaves them).
  const file = writeVrma(makeLongMotion(300, 60));
  const motion = readVrma(file);

  it('every track is a view of the file: one track cloned as it is carries the whole file', () => {
    expect(motion.channels[3].values.buffer.byteLength).toBeGreaterThan(CHUNK_BYTES);
    expect(clonedBytes(motion.channels[3])).toBe(motion.channels[3].values.buffer.byteLength);
  });

  it('shipped in slices, then sent by reference: the worker rebuilds every track bit for bit', async () => {
    const shipper = new BufferShipper();
    const store = new BufferStore();
    const wanted = shipper.wanted(motion.channels);
    expect(wanted).toHaveLength(1);
    const slices: number[] = [];
    await shipper.ship(wanted[0], async (c) => {
      slices.push(c.bytes.byteLength);
      store.chunk(c.buffer, c.total, c.offset, c.bytes);
    });
    expect(slices.length).toBe(Math.ceil(wanted[0].byteLength / CHUNK_BYTES));
    expect(Math.max(...slices)).toBeLessThanOrEqual(CHUNK_BYTES);
    const copies = new Map<Float32Array, Float32Array>();
    const sent = motion.channels.map((c) => shipper.sent(c, copies));
    expect(clonedBytes(sent)).toBe(0);
    sent.forEach((s, i) => {
      const back = store.channel(s);
      expect(bits(back.times).equals(bits(motion.channels[i].times))).toBe(true);
      expect(bits(back.values).equals(bits(motion.channels[i].values))).toBe(true);
    });
    // An edited track: its new values go as they are, its times (a view of the file) by reference.
    const c = motion.channels[5];
    const edited: Channel = { ...c, values: c.values.slice() };
    edited.values[0] = 0.5;
    const one = shipper.sent(edited, new Map());
    expect(clonedBytes(one)).toBe(edited.values.byteLength);
    expect(shipper.inUse({ ...motion, channels: [edited] })).toHaveLength(1);
    // A motion no longer using the file forgets it.
    expect(shipper.inUse({ ...motion, channels: [{ ...edited, times: c.times.slice() }] })).toHaveLength(0);
  });

  it('a lone track of a large buffer is copied out, not the buffer sent', () => {
    const shipper = new BufferShipper();
    expect(shipper.wanted([motion.channels[0]])).toHaveLength(0);
    const sent = shipper.sent(motion.channels[0], new Map());
    expect(clonedBytes(sent)).toBe(motion.channels[0].times.byteLength + motion.channels[0].values.byteLength);
  });

  it("a twin of the buffer on hand (the motion file worker's copy): moved whole in one message, nothing sliced; the worker adopts it", async () => {
    const twin = file.buffer.slice(0) as ArrayBuffer;
    const asked: ArrayBufferLike[] = [];
    const shipper = new BufferShipper((b) => (asked.push(b), Promise.resolve(twin)));
    const store = new BufferStore();
    const [buffer] = shipper.wanted(motion.channels);
    const chunks: ArrayBuffer[] = [];
    await shipper.ship(buffer, async (c) => {
      chunks.push(c.bytes);
      store.chunk(c.buffer, c.total, c.offset, c.bytes);
    });
    expect(asked).toEqual([buffer]);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toBe(twin);
    const sent = motion.channels.map((c) => shipper.sent(c, new Map()));
    expect(clonedBytes(sent)).toBe(0);
    sent.forEach((s, i) => {
      const back = store.channel(s);
      // The store's arrays are views of the twin itself (no copy), equal to the page's bit for bit.
      expect(back.values.buffer).toBe(twin);
      expect(bits(back.times).equals(bits(motion.channels[i].times))).toBe(true);
      expect(bits(back.values).equals(bits(motion.channels[i].values))).toBe(true);
    });
  });

  it('no twin, or one of another size: the buffer goes in slices as before', async () => {
    for (const twinOf of [() => undefined, () => Promise.resolve(undefined), () => Promise.resolve(new ArrayBuffer(16))]) {
      const shipper = new BufferShipper(twinOf);
      const [buffer] = shipper.wanted(motion.channels);
      const slices: number[] = [];
      await shipper.ship(buffer, async (c) => void slices.push(c.bytes.byteLength));
      expect(slices.length).toBe(Math.ceil(buffer.byteLength / CHUNK_BYTES));
    }
  });
});
