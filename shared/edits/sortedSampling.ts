/**
 * sampleChannel for many increasing times at once: the key cursor walks forward instead of a binary
 * search per time. Interpolation is sample.ts's (the kernel's slerpFlat, lerp), so values are identical.
 */
import type { Channel } from '../motion/types';
import { componentsOf } from '../motion/types';
import { slerpFlat } from '../math/quat';

/** Writes the channel's value at each of `at` (increasing) to out, `size` numbers apart. */
export function sampleAtSortedTimes(channel: Channel, at: ArrayLike<number>, out: Float32Array | Float64Array): void {
  const { times, values } = channel;
  const size = componentsOf(channel.path);
  const n = times.length;
  let i = 0;
  for (let s = 0; s < at.length; s++) {
    const t = at[s];
    while (i + 1 < n && times[i + 1] <= t) i++;
    const o = s * size;
    if (t <= times[0] || i === n - 1 || times[i] === t) {
      const k = t < times[0] ? 0 : i;
      for (let c = 0; c < size; c++) out[o + c] = values[k * size + c];
      continue;
    }
    const f = (t - times[i]) / (times[i + 1] - times[i]);
    if (size === 4) {
      slerpFlat(out, o, values, i * 4, values, i * 4 + 4, f);
    } else {
      const a = i * size;
      for (let c = 0; c < size; c++) out[o + c] = values[a + c] + (values[a + size + c] - values[a + c]) * f;
    }
  }
}
