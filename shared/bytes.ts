/**
 * Byte pieces joined into one array: a file written as parts (the .vrma writer, the FBX encoder), a
 * StudioApi message (the wire envelope). One loop for all of them; `total` when the caller counted it.
 */
export function joinBytes(parts: readonly Uint8Array[], total?: number): Uint8Array<ArrayBuffer> {
  let size = total ?? 0;
  if (total === undefined) for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
