/**
 * What a .vrma writer checks of the keys it writes: counts, nodes and duplicate targets of the
 * channels, strictly rising times, and values (NaN/infinity refused, rotations re-normalized in the
 * output only, so the file validates).
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { fail } from '../errors';
import type { SamplerForm } from './samplerForm';

/** glTF-Validator rejects rotations whose length is off by about 1e-3; we re-normalize well before that. */
const UNIT_TOLERANCE = 2e-4;

/**
 * Checks the values just copied into the output: refuses NaN/infinity, and re-normalizes (in the
 * output only) rotation keys that drifted from unit length, so the file always validates. Keys that
 * are unit within tolerance keep their exact bits.
 */
export function checkValues(out: Float32Array, c: Channel): void {
  const refuse = (v: number) => fail('BAD_PARAMETER', 'write.badValue', { node: c.node, path: c.path, value: String(v) });
  if (c.path !== 'rotation') {
    const bits = new Uint32Array(out.buffer, out.byteOffset, out.length);
    for (let i = 0; i < bits.length; i++) if ((bits[i] & 0x7f800000) === 0x7f800000) refuse(out[i]);
    return;
  }
  // One pass: a NaN or infinite component makes the length NaN/infinite, which fails the test too.
  for (let i = 0; i < out.length; i += 4) {
    const len2 = out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2] + out[i + 3] * out[i + 3];
    if (Math.abs(len2 - 1) <= UNIT_TOLERANCE) continue;
    if (!Number.isFinite(len2)) refuse([out[i], out[i + 1], out[i + 2], out[i + 3]].find((v) => !Number.isFinite(v)) ?? len2);
    if (len2 === 0) {
      out[i] = out[i + 1] = out[i + 2] = 0;
      out[i + 3] = 1;
      continue;
    }
    const inv = 1 / Math.sqrt(len2);
    for (let k = 0; k < 4; k++) out[i + k] *= inv;
  }
}

/** checkValues on a sampler's output: for CUBICSPLINE, tangents must be finite and the key values are checked. */
export function checkOutput(out: Float32Array, c: Channel, form: SamplerForm): void {
  if (form.interpolation !== 'CUBICSPLINE' || c.path !== 'rotation') {
    checkValues(out, c);
    return;
  }
  const tangents = new Float32Array(8);
  for (let i = 0; i < out.length; i += 12) {
    tangents.set(out.subarray(i, i + 4));
    tangents.set(out.subarray(i + 8, i + 12), 4);
    checkValues(tangents, { ...c, path: 'translation' });
    checkValues(out.subarray(i + 4, i + 8), c);
  }
}

/**
 * Whether checkOutput would leave `out` as it is (every value finite, every rotation key unit within
 * tolerance): such an output can be written from the Motion's own array, without a copy.
 */
export function outputIsClean(out: Float32Array, c: Channel, form: SamplerForm): boolean {
  const finite = (from: number, to: number) => {
    const bits = new Uint32Array(out.buffer, out.byteOffset + from * 4, to - from);
    for (let i = 0; i < bits.length; i++) if ((bits[i] & 0x7f800000) === 0x7f800000) return false;
    return true;
  };
  if (c.path !== 'rotation') return finite(0, out.length);
  const unit = (i: number) => Math.abs(out[i] * out[i] + out[i + 1] * out[i + 1] + out[i + 2] * out[i + 2] + out[i + 3] * out[i + 3] - 1) <= UNIT_TOLERANCE;
  if (form.interpolation !== 'CUBICSPLINE') {
    for (let i = 0; i < out.length; i += 4) if (!unit(i)) return false;
    return true;
  }
  for (let i = 0; i < out.length; i += 12) if (!finite(i, i + 4) || !unit(i + 4) || !finite(i + 8, i + 12)) return false;
  return true;
}

export function checkChannels(motion: Motion): void {
  const nodeCount = Array.isArray(motion.gltf.nodes) ? motion.gltf.nodes.length : 0;
  const targets = new Set<string>();
  for (const c of motion.channels) {
    const n = c.times.length * componentsOf(c.path);
    if (c.times.length === 0 || c.values.length < n) {
      fail('BAD_PARAMETER', 'write.countMismatch', { node: c.node, path: c.path, keys: c.times.length, values: c.values.length });
    }
    if (!Number.isInteger(c.node) || c.node < 0 || c.node >= nodeCount) fail('BAD_PARAMETER', 'write.badNode', { node: String(c.node), count: nodeCount });
    const key = `${c.node}/${c.path}`;
    if (targets.has(key)) fail('BAD_PARAMETER', 'write.duplicate', { node: c.node, path: c.path });
    targets.add(key);
  }
}

export function checkTimes(unique: readonly Float32Array[]): void {
  for (const t of unique) {
    if (!(t[0] >= 0)) fail('BAD_PARAMETER', 'write.negativeTime', { time: String(t[0]) });
    for (let i = 1; i < t.length; i++) {
      if (!(t[i] > t[i - 1])) fail('BAD_PARAMETER', 'write.timeOrder', { key: i, time: t[i], previous: t[i - 1] });
    }
  }
}
