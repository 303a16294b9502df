/**
 * A BVH cut short (a capture that stopped, a copy that broke off): the frames before the first bad
 * one can still be opened (issue 27). `readableFrames` says how many frames a BVH error leaves good;
 * `keepFrames` writes the same file with only those frames and "Frames:" saying so, for the one BVH
 * reader to read again. Pure text work: the hierarchy and the good frames' lines are kept as they are.
 */
/** The frames that read before the parse error `e` (a MotionError of the BVH reader), or 0. */
export function readableFrames(e: unknown): number {
  const { code, detail, params } = (e ?? {}) as { code?: unknown; detail?: unknown; params?: Record<string, unknown> };
  if (code !== 'BAD_BVH' || !params) return 0;
  if (detail === 'bvh.truncated' && typeof params.frames === 'number') return params.frames;
  if ((detail === 'bvh.frameCountMismatch' || detail === 'bvh.frameNotNumber' || detail === 'bvh.frameTooMany') && typeof params.frame === 'number') return params.frame - 1;
  return 0;
}

/** How many frames the file declares ("Frames: N"), or 0. */
export function declaredFrames(text: string): number {
  const m = /^\s*Frames:\s*(\d+)/im.exec(text);
  return m ? Number(m[1]) : 0;
}

/** `text` with its first `frames` frame lines only, and "Frames:" set to that count. */
export function keepFrames(text: string, frames: number): string {
  const lines = text.split(/(?<=\n)/);
  const out: string[] = [];
  let i = 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*Frames:/i.test(line)) out.push(line.replace(/(Frames:\s*)\d+/i, `$1${frames}`));
    else out.push(line);
    if (/^\s*Frame\s+Time:/i.test(line)) {
      i++;
      break;
    }
  }
  let kept = 0;
  for (; i < lines.length && kept < frames; i++) {
    out.push(lines[i]);
    if (lines[i].trim()) kept++;
  }
  return out.join('');
}
