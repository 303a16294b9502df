/**
 * Bounds-checked little-endian reader for the MMD binary formats. Every read names what it was
 * reading so a truncated or corrupted file fails with a message a user can act on.
 */
import { MotionError, type ErrorDetail, type ErrorParams, type MotionErrorCode } from '../../errors';

export class BinaryReader {
  private readonly view: DataView;
  offset = 0;

  constructor(readonly bytes: Uint8Array, private readonly code: MotionErrorCode) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  get remaining(): number {
    return this.bytes.length - this.offset;
  }

  /** The reader's code with a catalogue detail (the CLI and the studio word it from the catalogue). */
  fail(detail: ErrorDetail, params?: ErrorParams): never {
    throw new MotionError(this.code, detail, params);
  }

  /** `_field` names the read at the call site; the detail says where (the byte offset), in both languages. */
  need(n: number, _field: string): void {
    if (n > this.remaining) {
      this.fail('binary.endsEarly', { offset: this.offset, need: n, left: this.remaining });
    }
  }

  /** A count read from the file, checked against the bytes left before anything is allocated for it. */
  count(field: string, minRecordBytes: number): number {
    const n = this.u32(`${field} count`);
    if (n * minRecordBytes > this.remaining) {
      this.fail('binary.countTooLarge', { count: n, needed: n * minRecordBytes, left: this.remaining, offset: this.offset });
    }
    return n;
  }

  u8(field: string): number {
    this.need(1, field);
    return this.bytes[this.offset++];
  }

  u16(field: string): number {
    this.need(2, field);
    const v = this.view.getUint16(this.offset, true);
    this.offset += 2;
    return v;
  }

  u32(field: string): number {
    this.need(4, field);
    const v = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return v;
  }

  i32(field: string): number {
    this.need(4, field);
    const v = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return v;
  }

  f32(field: string): number {
    this.need(4, field);
    const v = this.view.getFloat32(this.offset, true);
    this.offset += 4;
    return v;
  }

  /** Signed index of 1, 2 or 4 bytes (PMX); -1 means none. */
  index(size: number, field: string): number {
    this.need(size, field);
    const o = this.offset;
    this.offset += size;
    return size === 1 ? this.view.getInt8(o) : size === 2 ? this.view.getInt16(o, true) : this.view.getInt32(o, true);
  }

  bytesOf(n: number, field: string): Uint8Array {
    this.need(n, field);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }

  skip(n: number, field: string): void {
    this.need(n, field);
    this.offset += n;
  }
}
