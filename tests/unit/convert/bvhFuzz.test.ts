/**
 * Malformed BVH, fuzzed with fast-check: truncations, byte flips, token swaps and random text around a
 * valid file. Every input must either convert or throw MotionError (never another error). How long the
 * slowest input takes is measured in bench/services.bench.ts, not here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { convertBvh } from '../../../shared/convert/bvh/convertBvh';
import { MotionError } from '../../../shared/errors';
import { encode } from '../../../testkit/bvhKit';
import { readFileSync } from 'node:fs';
import { HAS_FIXTURES, fixturePath } from '../../../testkit/fixtures';

const BASE = HAS_FIXTURES
  ? readFileSync(fixturePath('bvh', 'pybvh_standard_skeleton.bvh'), 'latin1')
  : 'HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Zrotation Xrotation Yrotation\nEnd Site\n{\nOFFSET 0 1 0\n}\n}\nMOTION\nFrames: 1\nFrame Time: 0.1\n0 0 0\n';

function check(bytes: Uint8Array): void {
  try {
    const motion = convertBvh(bytes);
    for (const c of motion.channels) for (const v of c.values) expect(Number.isFinite(v)).toBe(true);
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    expect(e.message.length).toBeGreaterThan(5);
  }
}

const TOKENS = [
  '{',
  '}',
  'ROOT',
  'JOINT X',
  'End Site',
  'OFFSET 1 2 3',
  'CHANNELS 3 Xrotation Yrotation Zrotation',
  'CHANNELS 6 Xposition Yposition Zposition Xrotation Yrotation Zrotation',
  'MOTION',
  'Frames: 2',
  'Frame Time: 0.01',
  '1e308',
  '-0',
  'NaN',
  'Infinity',
  '\r',
  '\t',
  '\0',
  '999999999',
];

describe('BVH fuzz', () => {
  it('truncated files', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: BASE.length }), (n) => check(encode(BASE.slice(0, n)))), { numRuns: 300 });
  });

  it('flipped bytes', () => {
    const bytes = encode(BASE);
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(bytes.length - 1), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }), (flips) => {
        const copy = bytes.slice();
        for (const [i, v] of flips) copy[i] = v;
        check(copy);
      }),
      { numRuns: 300 },
    );
  });

  it('lines replaced, duplicated or removed with BVH-looking tokens', () => {
    const lines = BASE.split(/\r?\n/);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(lines.length - 1), fc.constantFrom('replace', 'insert', 'delete'), fc.constantFrom(...TOKENS)), { minLength: 1, maxLength: 6 }),
        (edits) => {
          const l = [...lines];
          for (const [i, op, tok] of edits) {
            const at = Math.min(i, l.length - 1);
            if (op === 'replace') l[at] = tok;
            else if (op === 'insert') l.splice(at, 0, tok);
            else l.splice(at, 1);
          }
          check(encode(l.join('\n')));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('arbitrary text and bytes', () => {
    fc.assert(fc.property(fc.string({ maxLength: 400 }), (s) => check(encode('HIERARCHY\n' + s))), { numRuns: 200 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 400 }), (b) => check(b)), { numRuns: 200 });
  });

  it('hostile sizes are refused without allocating them', () => {
    const huge = BASE.replace(/Frames:\s*\d+/, 'Frames: 900000000');
    expect(() => convertBvh(encode(huge))).toThrow(MotionError);
    const deep = [
      'HIERARCHY',
      ...Array.from({ length: 3000 }, (_, i) => `${i ? 'JOINT' : 'ROOT'} j${i}\n{\nOFFSET 0 1 0\nCHANNELS 3 Xrotation Yrotation Zrotation`),
      ...Array(3000).fill('}'),
      'MOTION',
      'Frames: 1',
      'Frame Time: 0.1',
      '0',
    ];
    expect(() => convertBvh(encode(deep.join('\n')))).toThrow(/more than 2,048 joints/);
  });
});
