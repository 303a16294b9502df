/**
 * One time array for the tracks an edit gives the same keys. A file's tracks share one time array
 * (one glTF accessor), and an edit that changes every track over one span (a key move of a box of
 * rows, a range edit) makes each of them the same new times: 40 to 61 copies of 432,001 floats at an
 * hour, a fifth of the bytes such an edit writes (a rotation key is 1 time and 4 values) and of what
 * the undo history then keeps. Time arrays are never written after they are made, so the tracks may
 * share the first one.
 */

interface Made {
  readonly head: number;
  readonly tail: number;
  readonly mid: Float32Array;
  /** Weakly: this table must not keep an edit's times alive after its motion is gone. */
  readonly out: WeakRef<Float32Array>;
}

/** Per source array, the last time array made from it. */
const lastMade = new WeakMap<Float32Array, Made>();

function sameKeys(a: Float32Array, b: Float32Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * src[0, head), then mid, then src[tail, end): the array made last time from the same `src` with the
 * same head, tail and mid keys when there is one still alive (compared over mid only: O(span)), else
 * a new one.
 */
export function splicedTimes(src: Float32Array, head: number, mid: Float32Array, tail: number): Float32Array {
  const made = lastMade.get(src);
  if (made && made.head === head && made.tail === tail && sameKeys(made.mid, mid)) {
    const out = made.out.deref();
    if (out) return out;
  }
  const out = new Float32Array(head + mid.length + (src.length - tail));
  out.set(src.subarray(0, head));
  out.set(mid, head);
  out.set(src.subarray(tail), head + mid.length);
  lastMade.set(src, { head, tail, mid: mid.slice(), out: new WeakRef(out) });
  return out;
}
