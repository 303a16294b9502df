/**
 * How a .vrma file stores its keys, for `vrma-studio info`: float everywhere, or quantized (rotation
 * outputs as normalized integers, what writeVrma's `quantize` writes), and the file's bytes per key.
 * Read from the glTF JSON only, after readVrma accepted the file.
 */
import { parseGlb } from '../gltf/glb';
import { isObject, type Json } from '../gltf/json';

export interface FileEncoding {
  /** 'quantized': every rotation output is a normalized integer; 'mixed': some are. */
  readonly encoding: 'float' | 'quantized' | 'mixed';
  /** Component types of the rotation outputs, e.g. ['int16'] or ['float']. */
  readonly rotationComponents: readonly string[];
  readonly keys: number;
  /** Whole file size / keys of the first animation (0 when it has none). */
  readonly bytesPerKey: number;
}

const NAMES: Readonly<Record<number, string>> = { 5120: 'int8', 5121: 'uint8', 5122: 'int16', 5123: 'uint16', 5126: 'float' };

export function fileEncoding(bytes: Uint8Array): FileEncoding {
  const json = parseGlb(bytes).json as Json;
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const animation = Array.isArray(json.animations) && isObject(json.animations[0]) ? json.animations[0] : {};
  const samplers = Array.isArray(animation.samplers) ? animation.samplers : [];
  const channels = Array.isArray(animation.channels) ? animation.channels : [];
  let keys = 0;
  let rotations = 0;
  let integer = 0;
  const components = new Set<string>();
  for (const ch of channels) {
    if (!isObject(ch) || !isObject(ch.target) || typeof ch.sampler !== 'number') continue;
    const sampler = samplers[ch.sampler];
    if (!isObject(sampler)) continue;
    const input = typeof sampler.input === 'number' ? accessors[sampler.input] : undefined;
    if (isObject(input) && typeof input.count === 'number') keys += input.count;
    if (ch.target.path !== 'rotation') continue;
    const output = typeof sampler.output === 'number' ? accessors[sampler.output] : undefined;
    const type = isObject(output) && typeof output.componentType === 'number' ? output.componentType : 5126;
    rotations++;
    if (type !== 5126) integer++;
    components.add(NAMES[type] ?? String(type));
  }
  return {
    encoding: integer === 0 ? 'float' : integer === rotations ? 'quantized' : 'mixed',
    rotationComponents: [...components].sort(),
    keys,
    bytesPerKey: keys ? bytes.length / keys : 0,
  };
}

/** Where a file's bytes go (GLB headers and padding included), for `info` and the fileSize bench. */
export interface ByteBreakdown {
  readonly total: number;
  /** The JSON chunk's text (without its padding). */
  readonly json: number;
  /** Key times: every distinct accessor that is an animation input. */
  readonly times: number;
  /** Outputs of rotation channels, of translation channels (hips, expression weights), of the rest. */
  readonly rotations: number;
  readonly translations: number;
  readonly otherValues: number;
  /** GLB header, chunk headers, chunk padding and BIN bytes no animation accessor reads. */
  readonly overhead: number;
  readonly timeArrays: number;
}

const COMPONENT_BYTES: Readonly<Record<number, number>> = { 5120: 1, 5121: 1, 5122: 2, 5123: 2, 5125: 4, 5126: 4 };
const TYPE_SIZE: Readonly<Record<string, number>> = { SCALAR: 1, VEC2: 2, VEC3: 3, VEC4: 4 };

/** Bytes by part, from the JSON (each accessor counted once, tightly packed). */
export function byteBreakdown(bytes: Uint8Array): ByteBreakdown {
  const json = parseGlb(bytes).json as Json;
  const jsonText = bytes.length >= 20 ? new DataView(bytes.buffer, bytes.byteOffset).getUint32(12, true) : 0;
  let jsonBytes = jsonText;
  // The JSON chunk is padded with spaces: count only the text.
  while (jsonBytes > 0 && bytes[20 + jsonBytes - 1] === 0x20) jsonBytes--;
  const accessors = Array.isArray(json.accessors) ? json.accessors : [];
  const sizeOf = (i: unknown): number => {
    const a = typeof i === 'number' ? accessors[i] : undefined;
    if (!isObject(a) || typeof a.count !== 'number') return 0;
    return a.count * (TYPE_SIZE[a.type as string] ?? 1) * (COMPONENT_BYTES[a.componentType as number] ?? 4);
  };
  const seen = new Set<unknown>();
  let times = 0;
  let rotations = 0;
  let translations = 0;
  let otherValues = 0;
  let timeArrays = 0;
  for (const animation of Array.isArray(json.animations) ? json.animations : []) {
    if (!isObject(animation)) continue;
    const samplers = Array.isArray(animation.samplers) ? animation.samplers : [];
    for (const ch of Array.isArray(animation.channels) ? animation.channels : []) {
      if (!isObject(ch) || typeof ch.sampler !== 'number' || !isObject(samplers[ch.sampler])) continue;
      const s = samplers[ch.sampler] as Json;
      if (!seen.has(s.input)) {
        seen.add(s.input);
        times += sizeOf(s.input);
        timeArrays++;
      }
      if (seen.has(s.output)) continue;
      seen.add(s.output);
      const path = isObject(ch.target) ? ch.target.path : undefined;
      if (path === 'rotation') rotations += sizeOf(s.output);
      else if (path === 'translation') translations += sizeOf(s.output);
      else otherValues += sizeOf(s.output);
    }
  }
  const total = bytes.length;
  return { total, json: jsonBytes, times, rotations, translations, otherValues, overhead: total - jsonBytes - times - rotations - translations - otherValues, timeArrays };
}
