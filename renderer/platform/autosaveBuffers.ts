/**
 * The autosave worker's first copy of a long motion, without holding the page. A .vrma read whole
 * leaves every track a view of the file's bytes (413 MB for an hour at 120 fps); posting the motion
 * cloned that buffer in one task (4.7 s of main thread on the first pose edit of an hour). Instead the
 * buffer goes in 16 MiB slices, each moved (transferred, not cloned) in its own task, and the tracks are
 * sent as references into it; the worker assembles the buffer once and makes the same views. Where a
 * copy of the buffer exists already (the motion file worker's, of a .vrma it read), that copy is moved
 * instead, whole: the page copies nothing.
 */
import type { Channel, Motion } from '../../shared/motion/types';
import type { ArrayRef, SentChannel } from './autosaveProtocol';

/** Slice of a buffer per message (a few ms of copying each). */
export const CHUNK_BYTES = 16 * 1024 * 1024;

/** Page side: the buffers the worker has, by id; and what to send for a channel it does not hold. */
export class BufferShipper {
  /**
   * `twinOf`: a copy of a buffer's bytes someone else already made, moved here (the motion file
   * worker's copy of a .vrma it read as views, motionFiles.ts takeTwin): it goes whole, nothing is sliced.
   */
  constructor(private readonly twinOf?: (buffer: ArrayBufferLike) => Promise<ArrayBuffer | undefined> | undefined) {}

  private shipped = new Map<ArrayBufferLike, number>();
  /** Buffers on their way: a Save or autosave wanting one waits for it instead of sending it again. */
  private shipping = new Map<ArrayBufferLike, Promise<void>>();
  private nextId = 0;

  reset(): void {
    this.shipped = new Map();
    this.shipping = new Map();
  }

  /**
   * The buffers worth sending whole for these channels: larger than a chunk, not sent yet, and at
   * least half covered by the arrays to send (a lone view of a big buffer is copied out instead).
   */
  wanted(channels: readonly Channel[]): ArrayBuffer[] {
    const covered = new Map<ArrayBufferLike, Set<Float32Array>>();
    for (const c of channels) {
      for (const a of [c.times, c.values]) {
        if (a.buffer.byteLength < CHUNK_BYTES || this.shipped.has(a.buffer)) continue;
        let set = covered.get(a.buffer);
        if (!set) covered.set(a.buffer, set = new Set());
        set.add(a);
      }
    }
    const out: ArrayBuffer[] = [];
    for (const [buffer, arrays] of covered) {
      let bytes = 0;
      for (const a of arrays) bytes += a.byteLength;
      if (2 * bytes >= buffer.byteLength) out.push(buffer as ArrayBuffer);
    }
    return out;
  }

  /** Sends `buffer` in slices through `post` (one awaited message each, so the page draws between). */
  async ship(buffer: ArrayBuffer, post: (chunk: { buffer: number; total: number; offset: number; bytes: ArrayBuffer }) => Promise<unknown>): Promise<void> {
    if (this.shipped.has(buffer)) return;
    const going = this.shipping.get(buffer);
    if (going) return going;
    const shipping = this.shipping;
    const id = this.nextId++;
    const sending = (async () => {
      const twin = await this.twinOf?.(buffer);
      if (twin && twin.byteLength === buffer.byteLength) {
        await post({ buffer: id, total: buffer.byteLength, offset: 0, bytes: twin });
      } else {
        for (let offset = 0; offset < buffer.byteLength; offset += CHUNK_BYTES) {
          await post({ buffer: id, total: buffer.byteLength, offset, bytes: buffer.slice(offset, Math.min(buffer.byteLength, offset + CHUNK_BYTES)) });
        }
      }
      // Not after a reset (the worker failed meanwhile): the new worker has none of it.
      if (this.shipping === shipping) this.shipped.set(buffer, id);
    })();
    shipping.set(buffer, sending);
    try {
      await sending;
    } finally {
      shipping.delete(buffer);
    }
  }

  /** A channel to send whole: arrays in a sent buffer by reference, views of a much larger buffer copied out. */
  sent(c: Channel, copies: Map<Float32Array, Float32Array>): SentChannel {
    const one = (a: Float32Array): Float32Array | ArrayRef => {
      const id = this.shipped.get(a.buffer);
      if (id !== undefined) return { buffer: id, byteOffset: a.byteOffset, length: a.length };
      if (a.buffer.byteLength <= 2 * a.byteLength) return a;
      let copy = copies.get(a);
      if (!copy) copies.set(a, copy = a.slice());
      return copy;
    };
    return { ...c, times: one(c.times), values: one(c.values) };
  }

  /** Whether a sent buffer is one the motion's arrays are no view of. */
  unusedBy(motion: Motion): boolean {
    if (!this.shipped.size) return false;
    const used = new Set<ArrayBufferLike>();
    for (const c of motion.channels) used.add(c.times.buffer).add(c.values.buffer);
    for (const b of this.shipped.keys()) if (!used.has(b)) return true;
    return false;
  }

  /** The ids of sent buffers the motion still uses; the others are forgotten on both sides. */
  inUse(motion: Motion): number[] {
    const used = new Set<ArrayBufferLike>();
    for (const c of motion.channels) used.add(c.times.buffer).add(c.values.buffer);
    for (const b of [...this.shipped.keys()]) if (!used.has(b)) this.shipped.delete(b);
    return [...this.shipped.values()];
  }
}

/** Worker side: the buffers being or having been assembled, and the views into them. */
export class BufferStore {
  private buffers = new Map<number, ArrayBuffer>();

  chunk(buffer: number, total: number, offset: number, bytes: ArrayBuffer): void {
    let b = this.buffers.get(buffer);
    // A whole buffer in one message (a twin) is the buffer itself.
    if (!b && offset === 0 && bytes.byteLength === total) {
      this.buffers.set(buffer, bytes);
      return;
    }
    if (!b) this.buffers.set(buffer, b = new ArrayBuffer(total));
    new Uint8Array(b, offset, bytes.byteLength).set(new Uint8Array(bytes));
  }

  array(a: Float32Array | ArrayRef): Float32Array {
    if (a instanceof Float32Array) return a;
    const b = this.buffers.get(a.buffer);
    if (!b) throw new Error(`autosave: buffer ${a.buffer} was not sent`);
    return new Float32Array(b, a.byteOffset, a.length);
  }

  channel(c: SentChannel): Channel {
    return { ...c, times: this.array(c.times), values: this.array(c.values) };
  }

  /** Bytes of the buffers held. */
  get bytes(): number {
    let n = 0;
    for (const b of this.buffers.values()) n += b.byteLength;
    return n;
  }

  keepOnly(ids: readonly number[]): void {
    for (const id of [...this.buffers.keys()]) if (!ids.includes(id)) this.buffers.delete(id);
  }
}
