/**
 * Motion -> VRM Animation (.vrma) bytes: one animation, one sampler per channel (LINEAR, STEP or
 * CUBICSPLINE as its key kinds allow, samplerForm.ts), float accessors, identical
 * time arrays stored once, min/max on every time accessor, everything 4-byte aligned, two buffer
 * views (times, values) that are both used. The humanoid/expression/lookAt maps are written from the
 * Motion's own fields, the rest of the glTF JSON as the Motion keeps it. Rotation keys that are not
 * unit length (beyond 1e-4) are written normalized; NaN/infinity is refused with a MotionError.
 * The float layout is built as parts (writeParts.ts, which large saves send without joining); with
 * `quantize`, the smaller layout of writeQuantized (docs/quantized-vrma.md).
 */
import type { Channel, Motion } from '../motion/types';
import { componentsOf } from '../motion/types';
import { allocateGlb } from '../gltf/glb';
import { EXTENSION_NAME } from './read';
import { quantizeRotations } from './quantize';
import { compactRig, shortestFloat32 } from './compactRig';
import { samplerForm, type SamplerForm } from './samplerForm';
import { isObject, type Json } from '../gltf/json';
import { baseJson, shareTimes } from './writeJson';
import { checkChannels, checkOutput, checkTimes } from './writeChecks';
import { joinParts, writeVrmaParts } from './writeParts';

export interface WriteOptions {
  /**
   * Smaller file (opt-in): rotation keys as normalized 16-bit integers (8 bytes a key instead of 16;
   * each key moves by at most ROTATION_ROUNDING_ERROR, see quantize.ts), the compact rig
   * (compactRig.ts: only the nodes a VRMA player reads, world rest transforms kept), constant tracks
   * as one key, identical time arrays and outputs stored once, and a terser JSON (default
   * interpolation, zero offsets and default node transforms left out, numbers in the shortest
   * float32 spelling). Everything else stays float, as glTF requires. Readers: docs/quantized-vrma.md.
   */
  readonly quantize?: boolean;
}

export { shortestFloat32 };

/**
 * A channel's output as the quantized file stores it: 16-bit LINEAR and STEP rotations, float otherwise
 * (tangents are not unit length, so CUBICSPLINE stays float); checked.
 */
function storedValues(c: Channel, form: SamplerForm): Int16Array | Float32Array {
  const floats = form.output.slice();
  checkOutput(floats, c, form);
  return c.path === 'rotation' && form.interpolation !== 'CUBICSPLINE' ? quantizeRotations(floats) : floats;
}

function sameKeys(data: Int16Array | Float32Array, size: number): boolean {
  const bits = data instanceof Float32Array ? new Uint32Array(data.buffer, data.byteOffset, data.length) : data;
  for (let i = size; i < bits.length; i++) if (bits[i] !== bits[i % size]) return false;
  return true;
}

interface Stored {
  readonly channel: Channel;
  readonly interpolation: SamplerForm['interpolation'];
  readonly times: Float32Array;
  readonly data: Int16Array | Float32Array;
}

/**
 * The quantized layout's tracks: a track whose keys all store the same value becomes one key (it
 * plays the same at every time), except that one track ending at the motion's last key time keeps its
 * last key so the duration stays.
 */
function storedTracks(channels: readonly Channel[]): Stored[] {
  let end = -Infinity;
  for (const c of channels) end = Math.max(end, c.times[c.times.length - 1]);
  const out = channels.map((channel): Stored => {
    const form = samplerForm(channel);
    const data = storedValues(channel, form);
    const size = componentsOf(channel.path);
    const { interpolation } = form;
    if (interpolation !== 'CUBICSPLINE' && channel.times.length > 1 && sameKeys(data, size)) return { channel, interpolation, times: form.times.subarray(0, 1), data: data.subarray(0, size) };
    return { channel, interpolation, times: form.times, data };
  });
  if (channels.length && !out.some((s) => s.times[s.times.length - 1] === end)) {
    const i = channels.findIndex((c) => c.times[c.times.length - 1] === end);
    const c = channels[i];
    const size = componentsOf(c.path);
    const data = new (out[i].data.constructor as typeof Float32Array | typeof Int16Array)(2 * size);
    data.set(out[i].data.subarray(0, size));
    data.set(out[i].data.subarray(0, size), size);
    out[i] = { channel: c, interpolation: out[i].interpolation, times: Float32Array.of(c.times[0], end), data };
  }
  return out;
}

/** Index of each track's output in a list of distinct outputs (same type, same bytes). */
function shareOutputs(tracks: readonly Stored[]): { unique: Stored[]; indexOf: number[] } {
  const unique: Stored[] = [];
  const byKey = new Map<string, number[]>();
  const indexOf = tracks.map((t) => {
    const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    let h = 0x811c9dc5;
    for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
    const key = `${t.channel.path === 'rotation' ? 4 : 3}/${t.data instanceof Int16Array}/${bytes.length}/${h >>> 0}`;
    const candidates = byKey.get(key) ?? [];
    for (const u of candidates) {
      const other = unique[u].data;
      const ob = new Uint8Array(other.buffer, other.byteOffset, other.byteLength);
      if (ob.every((b, i) => b === bytes[i])) return u;
    }
    unique.push(t);
    candidates.push(unique.length - 1);
    byKey.set(key, candidates);
    return unique.length - 1;
  });
  return { unique, indexOf };
}

/**
 * The smaller file: the compact rig (compactRig.ts), 16-bit rotations, constant tracks as one key,
 * identical time arrays and identical outputs stored once, LINEAR and zero offsets left out, key-time
 * bounds in the shortest float32 spelling. Two buffer views: times, then values.
 */
function writeQuantized(source: Motion): Uint8Array {
  const motion = compactRig(source);
  const tracks = storedTracks(motion.channels);
  const times = shareTimes(tracks);
  checkTimes(times.unique);
  const outputs = shareOutputs(tracks);
  const accessors: Json[] = [];
  let timesBytes = 0;
  for (const t of times.unique) {
    accessors.push({
      bufferView: 0,
      ...(timesBytes ? { byteOffset: timesBytes } : {}),
      componentType: 5126,
      count: t.length,
      type: 'SCALAR',
      min: [shortestFloat32(t[0])],
      max: [shortestFloat32(t[t.length - 1])],
    });
    timesBytes += t.length * 4;
  }
  let valuesBytes = 0;
  for (const o of outputs.unique) {
    const short = o.data instanceof Int16Array;
    accessors.push({
      bufferView: 1,
      ...(valuesBytes ? { byteOffset: valuesBytes } : {}),
      componentType: short ? 5122 : 5126,
      ...(short ? { normalized: true } : {}),
      count: o.times.length * (o.interpolation === 'CUBICSPLINE' ? 3 : 1),
      type: o.channel.path === 'rotation' ? 'VEC4' : 'VEC3',
    });
    // A 16-bit key is 8 bytes, so every accessor still starts 4-byte aligned.
    valuesBytes += o.data.byteLength;
  }
  const gltf = baseJson(motion);
  // Empty expression groups say nothing (both are optional): left out.
  const ext = (gltf.extensions as Json)[EXTENSION_NAME] as Json;
  if (isObject(ext.expressions)) {
    const groups: Json = { ...ext.expressions };
    for (const kind of ['preset', 'custom']) if (isObject(groups[kind]) && Object.keys(groups[kind] as Json).length === 0) delete groups[kind];
    if (Object.keys(groups).length) ext.expressions = groups;
    else delete ext.expressions;
  }
  if (tracks.length) {
    gltf.buffers = [{ byteLength: timesBytes + valuesBytes }];
    gltf.bufferViews = [
      { buffer: 0, byteLength: timesBytes },
      { buffer: 0, byteOffset: timesBytes, byteLength: valuesBytes },
    ];
    gltf.accessors = accessors;
    const animation: Json = {};
    if (motion.animationName !== undefined) animation.name = motion.animationName;
    // Tracks with the same keys (same time array, same output) share one sampler; LINEAR, glTF's
    // default interpolation, is left out.
    const samplers: Json[] = [];
    const samplerOf = new Map<string, number>();
    animation.channels = tracks.map((t, i) => {
      const input = times.indexOf[i];
      const output = times.unique.length + outputs.indexOf[i];
      const interpolation = t.interpolation === 'LINEAR' ? {} : { interpolation: t.interpolation };
      const id = `${input}/${output}/${t.interpolation}`;
      let sampler = samplerOf.get(id);
      if (sampler === undefined) {
        sampler = samplers.push({ input, ...interpolation, output }) - 1;
        samplerOf.set(id, sampler);
      }
      return { sampler, target: { node: t.channel.node, path: t.channel.path } };
    });
    animation.samplers = samplers;
    if (motion.animationExtras !== undefined) animation.extras = motion.animationExtras;
    gltf.animations = [animation];
  }
  const { bytes, binOffset } = allocateGlb(gltf, tracks.length ? timesBytes + valuesBytes : 0);
  let o = binOffset;
  for (const t of times.unique) {
    new Float32Array(bytes.buffer, o, t.length).set(t);
    o += t.length * 4;
  }
  for (const u of outputs.unique) {
    bytes.set(new Uint8Array(u.data.buffer, u.data.byteOffset, u.data.byteLength), o);
    o += u.data.byteLength;
  }
  return bytes;
}

export function writeVrma(motion: Motion, options: WriteOptions = {}): Uint8Array {
  if (options.quantize === true) {
    checkChannels(motion);
    return writeQuantized(motion);
  }
  return joinParts(writeVrmaParts(motion));
}
