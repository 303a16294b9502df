/**
 * A YUV4MPEG2 (.y4m) file from RGBA frames: the format Chromium's fake webcam plays
 * (`--use-file-for-fake-video-capture=FILE.y4m`, looped at the header's frame rate). The format is a
 * text header line, then per frame "FRAME\n" and the planes Y (full size), U and V (half size each way,
 * 4:2:0). Colours are converted with BT.601 full range ("C420jpeg"), each chroma sample the mean of its
 * 2×2 block.
 */
export interface RgbaFrame {
  /** width × height × 4 bytes, rows from the top. */
  readonly rgba: Uint8Array;
}

const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

/** One frame's Y, U and V planes (width and height even). */
export function rgbaToI420(rgba: Uint8Array, width: number, height: number): Uint8Array {
  if (width % 2 || height % 2) throw new Error(`4:2:0 needs an even frame size, got ${width}×${height}`);
  if (rgba.length !== width * height * 4) throw new Error(`expected ${width * height * 4} bytes of RGBA, got ${rgba.length}`);
  const out = new Uint8Array((width * height * 3) / 2);
  const uOff = width * height, vOff = uOff + (width * height) / 4;
  for (let i = 0, p = 0; i < width * height; i++, p += 4) out[i] = clamp(0.299 * rgba[p] + 0.587 * rgba[p + 1] + 0.114 * rgba[p + 2]);
  for (let y = 0; y < height; y += 2) {
    for (let x = 0; x < width; x += 2) {
      let r = 0, g = 0, b = 0;
      for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) {
        const p = ((y + dy) * width + x + dx) * 4;
        r += rgba[p] / 4;
        g += rgba[p + 1] / 4;
        b += rgba[p + 2] / 4;
      }
      const c = (y / 2) * (width / 2) + x / 2;
      out[uOff + c] = clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
      out[vOff + c] = clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
  }
  return out;
}

export function writeY4m(frames: readonly RgbaFrame[], width: number, height: number, fps: number): Uint8Array {
  const header = new TextEncoder().encode(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`);
  const tag = new TextEncoder().encode('FRAME\n');
  const size = (width * height * 3) / 2;
  const out = new Uint8Array(header.length + frames.length * (tag.length + size));
  out.set(header, 0);
  let at = header.length;
  for (const f of frames) {
    out.set(tag, at);
    out.set(rgbaToI420(f.rgba, width, height), at + tag.length);
    at += tag.length + size;
  }
  return out;
}
