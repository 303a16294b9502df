/**
 * Byte pieces joined into one array: a file written as parts (the .vrma writer, the FBX encoder), a
 * StudioApi message (the wire envelope). One loop for all of them; `total` when the caller counted it.
 */
export function joinBytes(parts: readonly Uint8Array[], total?: number): Uint8Array<ArrayBuffer> {
  let size = total ?? 0;
  if (total === undefined) { for (const p of parts) size += p.length; }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Bytes [from, to) of the file the parts make, copied into one array: a piece of a file written as
 * parts, sent on its own (a 413 MB .vrma crosses Electron's IPC in pieces, not as one message).
 */
export function sliceOfParts(parts: readonly Uint8Array[], from: number, to: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(Math.max(0, to - from));
  let start = 0;
  for (const p of parts) {
    const end = start + p.length;
    if (end > from && start < to) {
      const a = Math.max(from, start) - start;
      const b = Math.min(to, end) - start;
      out.set(p.subarray(a, b), start + a - from);
    }
    if (end >= to) break;
    start = end;
  }
  return out;
}
