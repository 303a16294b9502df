/**
 * The WebM reader the capture decodes from (shared/capture/webmDemux) and which frame a sample shows
 * (shared/capture/framePicks), on files built here: the test's writer (testkit/webmWriter, whose
 * output Chromium plays in capture-video and the bench) and a live recording's layout as MediaRecorder
 * writes it (segment and clusters of unknown size, an audio track first, no cues, no duration). The
 * decoder on real rendered and recorded clips against Chromium's own demuxer is in
 * tests/e2e/capture-decode.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { demuxWebm } from '../../../shared/capture/webmDemux';
import { framePicks } from '../../../shared/capture/framePicks';
import { writeWebm } from '../../../testkit/webmWriter';

const UNKNOWN = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
function size(n: number): number[] {
  if (n < 0x7f) return [0x80 | n];
  return [0x40 | (n >> 8), n & 0xff];
}
const el = (id: number[], body: number[], unknown = false) => [...id, ...(unknown ? UNKNOWN : size(body.length)), ...body];
const uint = (id: number[], v: number) => el(id, v < 256 ? [v] : v < 65536 ? [v >> 8, v & 0xff] : [v >> 16, (v >> 8) & 0xff, v & 0xff]);
const str = (id: number[], s: string) => el(id, [...s].map((c) => c.charCodeAt(0)));
const HEADER = el([0x1a, 0x45, 0xdf, 0xa3], [...str([0x42, 0x82], 'webm')]);
/** A SimpleBlock of `track` at `rel` ticks after its cluster, its payload `n` bytes of `fill`. */
const simple = (track: number, rel: number, key: boolean, fill: number, n = 5) => el([0xa3], [0x80 | track, (rel >> 8) & 0xff, rel & 0xff, key ? 0x80 : 0, ...Array(n).fill(fill)]);
const track = (n: number, type: number, codec: string, extra: number[] = []) => el([0xae], [...uint([0xd7], n), ...uint([0x83], type), ...str([0x86], codec), ...extra]);
const video = (w: number, h: number) => el([0xe0], [...uint([0xb0], w), ...uint([0xba], h)]);

/** MediaRecorder's layout: live (unknown sizes), audio then video, one cluster a second. */
function recording(): Uint8Array {
  const tracks = el([0x16, 0x54, 0xae, 0x6b], [...track(1, 2, 'A_OPUS'), ...track(2, 1, 'V_VP9', [...el([0x63, 0xa2], [1, 1, 1, 2, 1, 31, 3, 1, 8]), ...video(640, 480)])]);
  const info = el([0x15, 0x49, 0xa9, 0x66], [...uint([0x2a, 0xd7, 0xb1], 1_000_000)]);
  const cluster = (start: number, blocks: number[]) => el([0x1f, 0x43, 0xb6, 0x75], [...uint([0xe7], start), ...blocks], true);
  const c1 = cluster(0, [...simple(1, 0, true, 0xa0), ...simple(2, 0, true, 1), ...simple(2, 33, false, 2), ...simple(1, 20, true, 0xa1), ...simple(2, 67, false, 3)]);
  // A BlockGroup whose ReferenceBlock makes it a delta frame.
  const group = el([0xa0], [...el([0xa1], [0x82, 0, 100, 0, 4, 4, 4]), ...el([0xfb], [0xdf])]);
  const c2 = cluster(1000, [...simple(2, 0, true, 5), ...group, ...simple(2, 33, false, 6, 300)]);
  return Uint8Array.from([...HEADER, ...el([0x18, 0x53, 0x80, 0x67], [...info, ...tracks, ...c1, ...c2], true)]);
}

describe('demuxWebm', () => {
  it("reads the test writer's file: VP8 640×480, every frame at its time with its bytes, a new cluster at each key frame past 32.767 s", () => {
    // 40 s at 10 frames/s, a key frame every 3 s: one cluster would wrap its 16-bit block times.
    const frames = Array.from({ length: 401 }, (_, i) => ({ timeMs: i * 100, key: i % 30 === 0, data: Uint8Array.from([i & 0xff, i >> 8, 7, 7]) }));
    const file = writeWebm(frames, 640, 480, 40_100);
    const v = demuxWebm(file)!;
    expect(v.track).toEqual({ codec: 'vp8', width: 640, height: 480 });
    expect(v.tick).toBe(0.001);
    expect(v.frames.length).toBe(401);
    for (const [i, f] of v.frames.entries()) {
      expect(f.time).toBeCloseTo(i / 10, 9);
      expect(f.key).toBe(i % 30 === 0);
      expect(Array.from(file.subarray(f.offset, f.offset + f.size))).toEqual([i & 0xff, i >> 8, 7, 7]);
    }
  });

  it("reads a live recording's layout: unknown sizes, the video track after the audio, VP9's private data, a BlockGroup", () => {
    const file = recording();
    const v = demuxWebm(file)!;
    expect(v.track).toEqual({ codec: 'vp09.01.31.08', width: 640, height: 480 });
    expect(v.frames.map((f) => [f.time, f.key, f.size, file[f.offset]])).toEqual([
      [0, true, 5, 1],
      [0.033, false, 5, 2],
      [0.067, false, 5, 3],
      [1, true, 5, 5],
      [1.1, false, 3, 4],
      [1.033, false, 300, 6],
    ]);
  });

  it('a recording cut mid-block keeps the frames before the cut', () => {
    const file = recording();
    const v = demuxWebm(file.subarray(0, file.length - 100))!;
    expect(v.frames.map((f) => f.time)).toEqual([0, 0.033, 0.067, 1, 1.1]);
  });

  it('what it does not read gives null (the capture seeks the <video> then): not EBML, no video, laced blocks, unknown codec, encrypted', () => {
    expect(demuxWebm(new Uint8Array([0, 0, 0, 0x20, 0x66, 0x74, 0x79, 0x70]))).toBeNull();
    expect(demuxWebm(new Uint8Array(0))).toBeNull();
    const file = (tracks: number[], blocks: number[]) =>
      Uint8Array.from([...HEADER, ...el([0x18, 0x53, 0x80, 0x67], [...el([0x16, 0x54, 0xae, 0x6b], tracks), ...el([0x1f, 0x43, 0xb6, 0x75], [...uint([0xe7], 0), ...blocks])])]);
    const vp8 = track(1, 1, 'V_VP8', video(64, 48));
    expect(demuxWebm(file(vp8, simple(1, 0, true, 9)))?.frames.length).toBe(1);
    expect(demuxWebm(file(track(1, 2, 'A_OPUS'), simple(1, 0, true, 9)))).toBeNull();
    const laced = el([0xa3], [0x81, 0, 0, 0x80 | 0x02, 1, 3, 9, 9, 9, 9, 9, 9]);
    expect(demuxWebm(file(vp8, laced))).toBeNull();
    expect(demuxWebm(file(track(1, 1, 'V_MPEGH/ISO/HEVC', video(64, 48)), simple(1, 0, true, 9)))).toBeNull();
    expect(demuxWebm(file(track(1, 1, 'V_VP8', [...video(64, 48), ...el([0x6d, 0x80], [])]), simple(1, 0, true, 9)))).toBeNull();
    // A stream that does not start on a key frame cannot be decoded from its start.
    expect(demuxWebm(file(vp8, simple(1, 0, false, 9)))).toBeNull();
  });
});

describe('framePicks', () => {
  it('a sample shows the last frame started at or before it, within half a tick (67 ms stored for 66.667)', () => {
    const starts = [0, 0.033, 0.067, 0.1, 0.133];
    expect(framePicks(starts, [0, 1 / 30, 2 / 30, 0.05, 0.1, 0.2], 0.001)).toEqual([0, 1, 2, 2, 3, 4]);
    // Without the half tick the 66.667 ms sample would show the frame before it.
    expect(framePicks(starts, [2 / 30], 0)).toEqual([1]);
  });

  it('before the first frame: the first; a sample rate above the video rate shows a frame twice', () => {
    expect(framePicks([0.02, 0.12], [0, 0.05, 0.1, 0.15], 0.001)).toEqual([0, 0, 0, 1]);
  });
});
