/**
 * fast-check arbitraries that damage real .vrma files the ways a disk, a network or a careless
 * exporter would: truncations, byte flips, corrupted 32-bit lengths/offsets/counts in the GLB
 * structure, and mutated glTF JSON (numbers, strings, deleted keys, swapped types) re-packed with the
 * original binary chunk.
 */
import fc from 'fast-check';
import { packGlb } from '../shared/gltf/glb';
import { readVrma } from '../shared/vrma/read';
import { writeVrma } from '../shared/vrma/write';
import { MotionError } from '../shared/errors';
import { summarizeMotion } from '../shared/vrma/summary';
import { createPoseEvaluator } from '../shared/vrma/fk';
import { durationOf } from '../shared/motion/types';

const INTERESTING: unknown[] = [
  0,
  -1,
  1,
  2,
  3,
  4,
  7,
  255,
  65535,
  65536,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  2 ** 40,
  2 ** 53,
  1e300,
  -1e300,
  0.5,
  -0.0,
  5120,
  5121,
  5122,
  5123,
  5125,
  5126,
  '',
  'rotation',
  'translation',
  'scale',
  'weights',
  'STEP',
  'CUBICSPLINE',
  'LINEAR',
  'SCALAR',
  'VEC3',
  'VEC4',
  'MAT4',
  'hips',
  'data:application/octet-stream;base64,AAAA',
  null,
  true,
  false,
  [],
  {},
  [0, 0, 0],
  { node: 0 },
  { bufferView: 0, componentType: 5126, count: 1, type: 'SCALAR' },
];

export interface Seed {
  readonly name: string;
  readonly bytes: Uint8Array;
  readonly json: unknown;
  readonly bin: Uint8Array;
}

export function seedOf(name: string, bytes: Uint8Array): Seed {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const jsonLength = dv.getUint32(12, true);
  const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
  const binStart = 20 + jsonLength + 8;
  const bin = binStart <= bytes.length ? bytes.subarray(binStart, binStart + dv.getUint32(20 + jsonLength, true)) : new Uint8Array(0);
  return { name, bytes, json, bin };
}

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; flips: [number, number][] }
  | { kind: 'u32'; at: number; value: number }
  | { kind: 'json'; edits: { path: number[]; op: number; value: unknown }[] };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('u32' as const),
    // Mostly the header and chunk headers, sometimes anywhere.
    at: fc.oneof(fc.constantFrom(8, 12, 16), fc.integer({ min: 0, max: 1 << 20 })),
    value: fc.oneof(fc.constantFrom(0, 1, 3, 20, 0x7fffffff, 0xffffffff, 0x4e4f534a, 0x004e4942), fc.nat()),
  }),
  fc.record({
    kind: fc.constant('json' as const),
    edits: fc.array(
      fc.record({ path: fc.array(fc.nat(), { minLength: 1, maxLength: 7 }), op: fc.integer({ min: 0, max: 3 }), value: fc.oneof(fc.constantFrom(...INTERESTING), fc.integer(), fc.double()) }),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

function pick(seed: Seed, m: Mutation): Uint8Array {
  const b = seed.bytes;
  switch (m.kind) {
    case 'truncate':
      return b.slice(0, Math.floor(m.at * b.length));
    case 'flip': {
      const out = b.slice();
      for (const [pos, v] of m.flips) out[Math.min(out.length - 1, Math.floor(pos * out.length))] = v;
      return out;
    }
    case 'u32': {
      const out = b.slice();
      const at = (m.at % Math.max(1, out.length - 4)) & ~3;
      new DataView(out.buffer).setUint32(at, m.value >>> 0, true);
      return out;
    }
    case 'json': {
      const json = structuredClone(seed.json) as Record<string, unknown>;
      for (const e of m.edits) editJson(json, e.path, e.op, e.value);
      return packGlb(json, seed.bin);
    }
  }
}

/** Walks into the JSON following `path` (indices modulo the keys), then replaces, deletes, or wraps. */
function editJson(root: Record<string, unknown>, path: number[], op: number, value: unknown): void {
  let parent: Record<string, unknown> | unknown[] = root;
  let key: string | number = '';
  for (const step of path) {
    const keys: (string | number)[] = Array.isArray(parent) ? parent.map((_, i) => i) : Object.keys(parent);
    if (keys.length === 0) break;
    key = keys[step % keys.length];
    const child = (parent as Record<string | number, unknown>)[key];
    if (child === null || typeof child !== 'object') break;
    if (path.indexOf(step) === path.length - 1) break;
    parent = child as Record<string, unknown> | unknown[];
  }
  if (key === '') return;
  const container = parent as Record<string | number, unknown>;
  if (op === 0 || op === 3) container[key] = value;
  else if (op === 1) {
    if (Array.isArray(container)) container.splice(Number(key), 1);
    else delete container[key];
  } else container[key] = typeof container[key] === 'number' ? (container[key] as number) * 2 + 1 : [container[key]];
}

export interface MutatedInput {
  readonly seed: string;
  readonly mutation: Mutation;
  readonly bytes: Uint8Array;
}

export function mutatedInput(seeds: readonly Seed[]): fc.Arbitrary<MutatedInput> {
  return fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), mutation).map(([i, m]) => ({
    seed: seeds[i].name,
    mutation: m,
    bytes: pick(seeds[i], m),
    // Counterexamples print as the recipe, not as 200 kB of bytes.
    [fc.toStringMethod]: () => `${seeds[i].name} ${JSON.stringify(m)}`,
  }));
}

export type Outcome = 'read' | 'rejected';

/**
 * The property: the input either reads (and then summarizes, poses, writes and reads back) or throws MotionError that
 * is not an internal error (and, when `maxMs` is given, within it: `npm run fuzz` only; `npm test` has no
 * wall-clock limits). Throws (failing the property) otherwise.
 */
export function checkInput(bytes: Uint8Array, maxMs?: number): Outcome {
  const start = performance.now();
  let outcome: Outcome;
  try {
    const motion = readVrma(bytes);
    // What the studio and CLI do next with a motion must not crash either.
    summarizeMotion(motion);
    createPoseEvaluator(motion)(durationOf(motion) / 2);
    readVrma(writeVrma(motion));
    outcome = 'read';
  } catch (e) {
    if (!(e instanceof MotionError)) throw new Error(`non-MotionError escaped: ${(e as Error)?.name}: ${(e as Error)?.message}`);
    if (e.message.startsWith('internal error')) throw new Error(`internal error: ${e.message}`);
    outcome = 'rejected';
  }
  const ms = performance.now() - start;
  if (maxMs !== undefined && ms > maxMs) throw new Error(`took ${ms.toFixed(0)} ms`);
  return outcome;
}
