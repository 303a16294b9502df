/**
 * Damaged FBX files the ways a disk, a download or a careless exporter would: truncations, byte flips,
 * and 32/64-bit lengths, counts and offsets overwritten (record headers and array headers are where a
 * reader can be tricked into huge allocations or endless loops). Seeds are the test writer's small
 * humanoid in every encoding (binary 7400 deflated, 7500 raw, ASCII; and as FBX 6.1 Takes, ASCII and
 * binary 6100, testkit/fbx61Writer.ts), so each case parses in about a
 * millisecond. The property: convert every take, or throw MotionError.
 */
import fc from 'fast-check';
import { MotionError } from '../../shared/errors';
import { convertFbxTakes, listFbxTakes } from '../../shared/convert/fbx/convertFbx';
import { writeVrma } from '../../shared/vrma/write';
import { encodeAsciiFbx, encodeBinaryFbx, fbxScene } from '../../testkit/fbxWriter';
import { fbx61Ascii, fbx61Binary } from '../../testkit/fbx61Writer';
import { parseFbx } from '../../shared/convert/fbx/convertFbx';
import { readScene } from '../../shared/convert/fbx/scene';
import { manyLongTakesFbx, parentChainFbx, sharedPathsFbx } from '../security/hostileReaders';

export interface FbxSeed {
  readonly name: string;
  readonly bytes: Uint8Array;
}

export function fbxSeeds(): FbxSeed[] {
  const scene = fbxScene({
    rotations: { LeftArm: [[0, 0, 0], [0, 0, -45], [0, 0, -80]], RightUpLeg: [[0, 0, 0], [30, 0, 0], [60, 0, 0]] },
    hips: [[0, 95, 0], [5, 96, 0], [10, 95, 0]],
  });
  const seven = encodeBinaryFbx(scene, 7400, true);
  const parsed = readScene(parseFbx(seven));
  return [
    { name: 'binary 7400 deflated', bytes: seven },
    { name: 'ascii 6100 takes', bytes: fbx61Ascii(parsed) },
    { name: 'binary 6100 takes', bytes: fbx61Binary(parsed) },
    { name: 'binary 7500 raw', bytes: encodeBinaryFbx(scene, 7500, false) },
    { name: 'ascii 7400', bytes: encodeAsciiFbx(scene) },
    // Issue 24's probes, small: shared links, takes over a shared curve, a parent chain with a loop.
    { name: 'shared paths 3x3x3', bytes: sharedPathsFbx(3, 3, 3, 10) },
    { name: 'three long takes', bytes: manyLongTakesFbx(3, 90) },
    { name: 'parent chain and loop', bytes: parentChainFbx(40, true) },
  ];
}

type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'flip'; flips: [number, number][] }
  | { kind: 'word'; at: number; value: number; wide: boolean }
  | { kind: 'splice'; at: number; text: string };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('word' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    value: fc.oneof(fc.constantFrom(0, 1, 2, 13, 25, 27, 0x7fffffff, 0xffffffff, 0x40000000), fc.nat()),
    wide: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('splice' as const),
    at: fc.double({ min: 0, max: 1, noNaN: true }),
    text: fc.constantFrom('{', '}', ',', '*999999999 {', 'a: 1,2', '"', ';', ': ', 'P: "Lcl Rotation", "", "", "A", 1e308, NaN, 0', '\u0000'),
  }),
);

function apply(seed: FbxSeed, m: Mutation): Uint8Array {
  const b = seed.bytes;
  const at = (x: number) => Math.min(b.length - 1, Math.floor(x * b.length));
  switch (m.kind) {
    case 'truncate':
      return b.slice(0, Math.floor(m.at * b.length));
    case 'flip': {
      const out = b.slice();
      for (const [pos, v] of m.flips) out[at(pos)] = v;
      return out;
    }
    case 'word': {
      const out = b.slice();
      const o = Math.min(at(m.at), out.length - (m.wide ? 8 : 4));
      if (o < 0) return out;
      const dv = new DataView(out.buffer);
      if (m.wide) dv.setBigUint64(o, BigInt(m.value >>> 0) * (m.value % 3 === 0 ? 1n << 20n : 1n), true);
      else dv.setUint32(o, m.value >>> 0, true);
      return out;
    }
    case 'splice': {
      const o = at(m.at);
      const text = new TextEncoder().encode(m.text);
      const out = new Uint8Array(b.length + text.length);
      out.set(b.subarray(0, o), 0);
      out.set(text, o);
      out.set(b.subarray(o), o + text.length);
      return out;
    }
  }
}

export interface FbxMutated {
  readonly seed: string;
  readonly mutation: Mutation;
  readonly bytes: Uint8Array;
}

export function mutatedFbx(seeds: readonly FbxSeed[]): fc.Arbitrary<FbxMutated> {
  return fc.tuple(fc.integer({ min: 0, max: seeds.length - 1 }), mutation).map(([i, m]) => ({
    seed: seeds[i].name,
    mutation: m,
    bytes: apply(seeds[i], m),
    [fc.toStringMethod]: () => `${seeds[i].name} ${JSON.stringify(m)}`,
  }));
}

/** Converts (and writes) every take, or accepts a MotionError; anything else fails the property. */
export function checkFbx(bytes: Uint8Array): 'converted' | 'rejected' {
  try {
    listFbxTakes(bytes);
    for (const t of convertFbxTakes(bytes)) {
      for (const c of t.motion.channels) for (const v of c.values) if (!Number.isFinite(v)) throw new Error(`non-finite value in ${t.take.name}`);
      writeVrma(t.motion);
    }
    return 'converted';
  } catch (e) {
    if (!(e instanceof MotionError)) throw new Error(`non-MotionError escaped: ${(e as Error)?.name}: ${(e as Error)?.message}`);
    return 'rejected';
  }
}
