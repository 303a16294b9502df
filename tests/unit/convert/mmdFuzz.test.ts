/**
 * Fuzzing the MMD readers and converters with fast-check: truncated files, flipped bytes and corrupted
 * counts either convert to a finite motion or throw a MotionError.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MotionError } from '../../../shared/errors';
import type { Motion } from '../../../shared/motion/types';
import { convertVmd, convertVpd, parsePmxBones, parseVmd, parseVpd } from '../../../shared/convert/mmd';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';
import { writeVmd, writeVpd } from '../../../testkit/mmdWriters';

// No per-input time limit here (npm test has no wall-clock assertions): a hang fails at the test
// timeout, and the slowest input's time is measured in bench/services.bench.ts.

function mutation(size: number) {
  return fc.oneof(
    fc.record({ kind: fc.constant('truncate' as const), at: fc.integer({ min: 0, max: size }) }),
    fc.record({ kind: fc.constant('flip' as const), flips: fc.array(fc.tuple(fc.integer({ min: 0, max: size - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }) }),
    fc.record({
      kind: fc.constant('count' as const),
      at: fc.integer({ min: 0, max: Math.max(0, size - 4) }),
      value: fc.oneof(fc.integer({ min: 0, max: 0xffffffff }), fc.constantFrom(0, 1, 0x7fffffff, 0xffffffff)),
    }),
  );
}

function apply(bytes: Uint8Array, m: ReturnType<typeof mutation> extends fc.Arbitrary<infer T> ? T : never, countOffsets: readonly number[]): Uint8Array {
  if (m.kind === 'truncate') return bytes.slice(0, m.at);
  const out = bytes.slice();
  if (m.kind === 'flip') { for (const [i, v] of m.flips) out[i] = v; }
  else {
    // Half the time hit a real count field, otherwise anywhere.
    const at = countOffsets.length && m.at % 2 === 0 ? countOffsets[m.at % countOffsets.length] : m.at;
    new DataView(out.buffer).setUint32(Math.min(at, out.length - 4), m.value, true);
  }
  return out;
}

function finiteMotion(motion: Motion): boolean {
  return motion.channels.every((c) => c.values.every(Number.isFinite) && c.times.every(Number.isFinite));
}

function convertsOrRejects(run: () => Motion | unknown): void {
  try {
    const result = run();
    if (result && typeof result === 'object' && 'channels' in (result as object)) expect(finiteMotion(result as Motion)).toBe(true);
  } catch (e) {
    if (!(e instanceof MotionError)) throw e;
    expect(e.message.length).toBeGreaterThan(10);
  }
}

const generatedVmd = writeVmd({
  bones: [
    { name: 'センター', frame: 0, position: [0, 1, 0] },
    { name: '左足ＩＫ', frame: 0 },
    { name: '左足ＩＫ', frame: 20, position: [0, 2, -1], curve: [100, 10, 30, 120] },
    { name: '上半身', frame: 10, rotation: [0.1, 0.2, 0, 0.97] },
  ],
  morphs: [{ name: 'あ', frame: 5, weight: 1 }],
  ik: [{ frame: 10, enabled: { '左足ＩＫ': false } }],
});

function vmdCountOffsets(bytes: Uint8Array): number[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bones = view.getUint32(50, true);
  const morphAt = 54 + bones * 111;
  return morphAt + 4 <= bytes.length ? [50, morphAt] : [50];
}

describe('fuzzing the MMD readers', () => {
  it('VMD: mutated generated motions convert or throw MotionError', () => {
    fc.assert(
      fc.property(mutation(generatedVmd.length), (m) => {
        const bytes = apply(generatedVmd, m, vmdCountOffsets(generatedVmd));
        convertsOrRejects(() => convertVmd(bytes));
      }),
      { numRuns: 200, seed: 4 },
    );
  });

  it('VPD: mutated and random text converts or throws MotionError', () => {
    const vpd = writeVpd({
      modelName: 'm',
      bones: [
        { name: '左足ＩＫ', position: [0, 1, -2], rotation: [0, 0, 0, 1] },
        { name: '上半身', position: [0, 0, 0], rotation: [0.1, 0, 0, 0.995] },
      ],
      morphs: [{ name: 'まばたき', weight: 1 }],
    });
    fc.assert(
      fc.property(mutation(vpd.length), (m) => {
        const bytes = apply(vpd, m, []);
        convertsOrRejects(() => convertVpd(bytes));
      }),
      { numRuns: 300, seed: 6 },
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (s) => {
        convertsOrRejects(() => parseVpd(new TextEncoder().encode(`Vocaloid Pose Data file\n${s}`)));
      }),
      { numRuns: 200, seed: 7 },
    );
  });

  it('parseVmd on random bytes after a valid header throws MotionError or parses', () => {
    const header = new TextEncoder().encode('Vocaloid Motion Data 0002\0\0\0\0\0');
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (tail) => {
        const bytes = new Uint8Array(header.length + tail.length);
        bytes.set(header);
        bytes.set(tail, header.length);
        convertsOrRejects(() => parseVmd(bytes));
      }),
      { numRuns: 300, seed: 9 },
    );
  });

  describeFixtures('on the real fixtures', () => {
    it('VMD: mutated real motions (mei_greeting, stand) convert or throw MotionError', () => {
      for (const file of ['mmdagent/mei_greeting.vmd', 'gene/stand.vmd']) {
        const real = readFixture('vmd', file);
        fc.assert(
          fc.property(mutation(real.length), (m) => {
            const bytes = apply(real, m, vmdCountOffsets(real));
            convertsOrRejects(() => convertVmd(bytes));
          }),
          { numRuns: 60, seed: 5 },
        );
      }
    });

    it('PMX: mutated Gene.pmx parses or throws MotionError, and converts a motion if it parses', () => {
      const pmx = readFixture('pmx', 'Gene.pmx');
      const view = new DataView(pmx.buffer, pmx.byteOffset, pmx.byteLength);
      // Corruption matters in the header, the counts and the bones; the vertex payload is skipped wholesale.
      const vertexCountAt = (() => {
        let o = 17;
        for (let i = 0; i < 4; i++) o += 4 + view.getInt32(o, true);
        return o;
      })();
      const bonesAt = parsePmxBones(pmx).bonesOffset;
      const motion = readFixture('vmd', 'gene/stand.vmd');
      let parsed = 0;
      fc.assert(
        fc.property(mutation(pmx.length), fc.constantFrom('anywhere', 'header', 'bones'), (m, region) => {
          const focus = (i: number) => (region === 'header' ? i % 4096 : region === 'bones' ? bonesAt + (i % 24000) : i);
          const focused = m.kind === 'flip' ? { ...m, flips: m.flips.map(([i, v]) => [focus(i), v] as [number, number]) } : m;
          const bytes = apply(pmx, focused, [vertexCountAt, bonesAt]);
          try {
            parsePmxBones(bytes);
            parsed++;
            convertsOrRejects(() => convertVmd(motion, { pmx: bytes }));
          } catch (e) {
            if (!(e instanceof MotionError)) throw e;
          }
        }),
        { numRuns: 90, seed: 8 },
      );
      expect(parsed).toBeGreaterThan(0);
    });
  });
});
