/**
 * Which keys the dope sheet has selected: a bit mask per row (node/path), so selecting and moving
 * 10,000 keys is a few array passes, not a Set of objects. Turned into the core's KeySelection for
 * the edits in shared/edits.
 */
import type { ChannelPath, Motion } from '../../shared/motion/types';
import type { KeySelection } from '../../shared/edits/keySelection';
import { lowerBound } from '../../shared/edits/keyBuffer';

export class KeySelectionState {
  private readonly masks = new Map<string, Uint8Array>();
  /**
   * Per mask, indices [from, to) outside which it is all 0 (wider is allowed): counting and listing
   * walk only those, not every key of an hour-long row (432,001 at 120 fps, 40 rows in a box).
   */
  private readonly spans = new Map<string, [number, number]>();

  private spanOf(id: string, m: Uint8Array): [number, number] {
    return this.spans.get(id) ?? [0, m.length];
  }

  private widen(id: string, from: number, to: number): void {
    const s = this.spans.get(id);
    if (!s) this.spans.set(id, [from, to]);
    else {
      s[0] = Math.min(s[0], from);
      s[1] = Math.max(s[1], to);
    }
  }

  get size(): number {
    let n = 0;
    for (const [id, m] of this.masks) {
      const [from, to] = this.spanOf(id, m);
      for (let i = from; i < to; i++) n += m[i];
    }
    return n;
  }

  get empty(): boolean {
    for (const [id, m] of this.masks) {
      const [from, to] = this.spanOf(id, m);
      if (m.subarray(from, to).includes(1)) return false;
    }
    return true;
  }

  clear(): void {
    this.masks.clear();
    this.spans.clear();
  }

  mask(id: string): Uint8Array | undefined {
    return this.masks.get(id);
  }

  has(id: string, index: number): boolean {
    return this.masks.get(id)?.[index] === 1;
  }

  private maskFor(id: string, length: number): Uint8Array {
    let m = this.masks.get(id);
    if (!m || m.length !== length) {
      this.masks.set(id, m = new Uint8Array(length));
      this.spans.set(id, [length, 0]);
    }
    return m;
  }

  set(id: string, length: number, index: number, on: boolean): void {
    this.maskFor(id, length)[index] = on ? 1 : 0;
    if (on) this.widen(id, index, index + 1);
  }

  /** Selects every key of a row with time in [t0, t1]. */
  selectTimeSpan(id: string, times: Float32Array, t0: number, t1: number): number {
    const m = this.maskFor(id, times.length);
    const from = lowerBound(times, t0);
    let i = from;
    for (; i < times.length && times[i] <= t1; i++) m[i] = 1;
    if (i > from) this.widen(id, from, i);
    return i - from;
  }

  /** The core's selection: node/path and key indices of every row with a selected key. */
  toKeySelection(): KeySelection {
    const out: { node: number; path: ChannelPath; keys: Int32Array }[] = [];
    for (const [id, m] of this.masks) {
      const [from, to] = this.spanOf(id, m);
      let count = 0;
      for (let i = from; i < to; i++) count += m[i];
      if (!count) continue;
      const keys = new Int32Array(count);
      let k = 0;
      for (let i = from; i < to; i++) if (m[i]) keys[k++] = i;
      const [node, path] = id.split('/');
      out.push({ node: Number(node), path: path as ChannelPath, keys });
    }
    return out;
  }

  /** After a move by dt: selects the keys now at the moved times (the masks follow the keys). */
  reselectMoved(before: KeySelection, beforeMotion: Motion, after: Motion, dt: number): void {
    this.clear();
    for (const e of before) {
      const old = beforeMotion.channels.find((c) => c.node === e.node && c.path === e.path)!;
      const now = after.channels.find((c) => c.node === e.node && c.path === e.path);
      if (!now) continue;
      const id = `${e.node}/${e.path}`;
      const m = this.maskFor(id, now.times.length);
      for (let k = 0; k < e.keys.length; k++) {
        const t = Math.fround(old.times[e.keys[k]] + dt);
        const i = lowerBound(now.times, t);
        if (i < now.times.length && now.times[i] === t) {
          m[i] = 1;
          this.widen(id, i, i + 1);
        }
      }
    }
  }

  /** Drops masks that no longer fit the motion's tracks (after undo or another edit). */
  validate(motion: Motion): void {
    for (const [id, m] of [...this.masks]) {
      const [node, path] = id.split('/');
      const c = motion.channels.find((x) => x.node === Number(node) && x.path === path);
      if (!c || c.times.length !== m.length) {
        this.masks.delete(id);
        this.spans.delete(id);
      }
    }
  }
}
