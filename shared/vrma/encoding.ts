/**
 * How a .vrma file stores its keys, for `vrma-studio info`: float everywhere, or quantized (rotation
 * outputs as normalized integers, what writeVrma's `quantize` writes), and the file's bytes per key.
 * Read from the glTF JSON only, after readVrma accepted the file.
 */
import { parseGlb } from '../gltf/glb';

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

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

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
