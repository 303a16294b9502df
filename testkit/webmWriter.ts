/**
 * A minimal WebM (Matroska) file around VP8 frames encoded in the page by WebCodecs: EBML header,
 * one segment with its duration, one video track and a cluster of SimpleBlocks from each key frame on
 * (as MediaRecorder writes them), with the frames' own timestamps (milliseconds). A block's time is a
 * signed 16-bit offset from its cluster's: one cluster for a whole minute wrapped past 32.767 s. Enough for Chromium's demuxer, written here so a test's video has exact
 * frame times (MediaRecorder's are the wall clock, and it drops frames on a loaded machine).
 */
export interface EncodedFrame {
  readonly data: Uint8Array;
  /** Milliseconds from the start. */
  readonly timeMs: number;
  readonly key: boolean;
}

function sizeBytes(n: number): number[] {
  // 8-byte EBML size: 0x01 then 7 bytes.
  const out = [0x01];
  for (let i = 6; i >= 0; i--) out.push(Math.floor(n / 2 ** (8 * i)) & 0xff);
  return out;
}
function el(id: number[], body: ArrayLike<number>): number[] {
  return [...id, ...sizeBytes(body.length), ...Array.from(body)];
}
function uint(id: number[], v: number): number[] {
  const b: number[] = [];
  for (let x = v; b.length === 0 || x > 0; x = Math.floor(x / 256)) b.unshift(x & 0xff);
  return el(id, b);
}
const str = (id: number[], s: string) => el(id, Array.from(new TextEncoder().encode(s)));
function float64(id: number[], v: number): number[] {
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, v);
  return el(id, b);
}

export function writeWebm(frames: readonly EncodedFrame[], width: number, height: number, durationMs: number): Uint8Array {
  const header = el([0x1a, 0x45, 0xdf, 0xa3], [
    ...uint([0x42, 0x86], 1),
    ...uint([0x42, 0xf7], 1),
    ...uint([0x42, 0xf2], 4),
    ...uint([0x42, 0xf3], 8),
    ...str([0x42, 0x82], 'webm'),
    ...uint([0x42, 0x87], 2),
    ...uint([0x42, 0x85], 2),
  ]);
  const info = el([0x15, 0x49, 0xa9, 0x66], [
    ...uint([0x2a, 0xd7, 0xb1], 1_000_000),
    ...float64([0x44, 0x89], durationMs),
    ...str([0x4d, 0x80], 'vrma-studio test'),
    ...str([0x57, 0x41], 'vrma-studio test'),
  ]);
  const tracks = el(
    [0x16, 0x54, 0xae, 0x6b],
    el([0xae], [
      ...uint([0xd7], 1),
      ...uint([0x73, 0xc5], 1),
      ...uint([0x83], 1),
      ...str([0x86], 'V_VP8'),
      ...el([0xe0], [...uint([0xb0], width), ...uint([0xba], height)]),
    ]),
  );
  const clusters: number[][] = [];
  let start = 0;
  let blocks: number[] = [];
  const close = () => blocks.length && clusters.push(el([0x1f, 0x43, 0xb6, 0x75], [...uint([0xe7], start), ...blocks]));
  for (const f of frames) {
    const ms = Math.round(f.timeMs);
    // A key frame starts a cluster; so does an offset that no longer fits the block's 16 bits.
    if (f.key || ms - start > 0x7fff) {
      close();
      [start, blocks] = [ms, []];
    }
    const rel = ms - start;
    blocks.push(...el([0xa3], [0x81, (rel >> 8) & 0xff, rel & 0xff, f.key ? 0x80 : 0x00, ...f.data]));
  }
  close();
  const segment = el([0x18, 0x53, 0x80, 0x67], [...info, ...tracks, ...clusters.flat()]);
  return Uint8Array.from([...header, ...segment]);
}
