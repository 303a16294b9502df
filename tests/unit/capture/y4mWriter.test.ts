/** The fake webcam's .y4m (testkit/y4mWriter): header, frame layout, BT.601 full-range colours. */
import { describe, expect, it } from 'vitest';
import { rgbaToI420, writeY4m } from '../../../testkit/y4mWriter';

const solid = (w: number, h: number, [r, g, b]: [number, number, number]) => {
  const out = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) out.set([r, g, b, 255], i * 4);
  return out;
};

describe('y4mWriter', () => {
  it('solid colours: Y, U and V as JPEG (full range) defines them, to the rounding', () => {
    for (
      const [rgb, yuv] of [
        [[255, 255, 255], [255, 128, 128]],
        [[0, 0, 0], [0, 128, 128]],
        [[255, 0, 0], [76, 85, 255]],
        [[0, 0, 255], [29, 255, 107]],
      ] as [[number, number, number], [number, number, number]][]
    ) {
      const p = rgbaToI420(solid(4, 2, rgb), 4, 2);
      expect(p.length).toBe(12); // 8 Y + 2 U + 2 V
      expect([p[0], p[8], p[10]], `rgb ${rgb}`).toEqual(yuv);
    }
  });

  it('chroma is the mean of each 2×2 block; luma is per pixel', () => {
    const rgba = new Uint8Array(4 * 2 * 4);
    // Left block white, right block black.
    for (const i of [0, 1, 4, 5]) rgba.set([255, 255, 255, 255], i * 4);
    for (const i of [2, 3, 6, 7]) rgba.set([0, 0, 0, 255], i * 4);
    const p = rgbaToI420(rgba, 4, 2);
    expect(Array.from(p.subarray(0, 8))).toEqual([255, 255, 0, 0, 255, 255, 0, 0]);
    expect(Array.from(p.subarray(8))).toEqual([128, 128, 128, 128]);
    // A red/blue checker averages to their mean colour's chroma.
    const c = new Uint8Array(16);
    c.set([255, 0, 0, 255, 0, 0, 255, 255, 0, 0, 255, 255, 255, 0, 0, 255]);
    const q = rgbaToI420(c, 2, 2);
    expect([q[4], q[5]]).toEqual([Math.round(128 - 0.168736 * 127.5 + 0.5 * 127.5), Math.round(128 + 0.5 * 127.5 - 0.081312 * 127.5)]);
  });

  it('the file: one header line, then FRAME and the planes per frame; odd sizes and short buffers refused', () => {
    const f = { rgba: solid(4, 2, [0, 0, 0]) };
    const y4m = writeY4m([f, f, f], 4, 2, 10);
    const header = 'YUV4MPEG2 W4 H2 F10:1 Ip A1:1 C420jpeg\n';
    expect(new TextDecoder().decode(y4m.subarray(0, header.length))).toBe(header);
    expect(y4m.length).toBe(header.length + 3 * ('FRAME\n'.length + 12));
    expect(new TextDecoder().decode(y4m.subarray(header.length + 18, header.length + 24))).toBe('FRAME\n');
    expect(() => rgbaToI420(new Uint8Array(3 * 2 * 4), 3, 2)).toThrow(/even/);
    expect(() => rgbaToI420(new Uint8Array(10), 4, 2)).toThrow(/32 bytes/);
  });
});
