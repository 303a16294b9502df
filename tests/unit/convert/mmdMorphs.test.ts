/**
 * The MMD morphs of the one expression table (shared/convert/humanoid/expressionNames.ts), one test per entry: a VMD that
 * keys only that morph (0 at frame 0, 0.8 at frame 10, written in Shift_JIS by the test writer) converts
 * to an expression track of the preset with those weights. Plus: two morphs of one preset (Mei's あ and
 * 発音「あ」) combine by maximum, and Mei's and Gene's real motions get their vowels and blinks.
 */
import { describe, expect, it } from 'vitest';
import { convertVmd } from '../../../shared/convert/mmd/index';
import { MMD_MORPHS } from '../../../shared/convert/humanoid/expressionNames';
import { findChannel, type Motion } from '../../../shared/motion/types';
import { writeVmd } from '../../../testkit/mmdWriters';
import { describeFixtures, readFixture } from '../../../testkit/fixtures';

/** The weights of an expression track (translation.x of its node), with the key times. */
function weights(motion: Motion, preset: string): { times: number[]; values: number[] } | undefined {
  const e = motion.expressions.find((x) => x.name === preset);
  if (!e) return undefined;
  const c = findChannel(motion, e.node, 'translation')!;
  return { times: Array.from(c.times), values: Array.from(c.values).filter((_, i) => i % 3 === 0) };
}

const ENTRIES: readonly [string, string][] = [
  ['あ', 'aa'],
  ['い', 'ih'],
  ['う', 'ou'],
  ['え', 'ee'],
  ['お', 'oh'],
  ['発音「あ」', 'aa'],
  ['発音「い」', 'ih'],
  ['発音「う」', 'ou'],
  ['発音「え」', 'ee'],
  ['発音「お」', 'oh'],
  ['まばたき', 'blink'],
  ['目_閉じ', 'blink'],
  ['はぅ', 'blink'],
  ['ウィンク', 'blinkLeft'],
  ['ウィンク２', 'blinkLeft'],
  ['ウィンク右', 'blinkRight'],
  ['ウィンク２右', 'blinkRight'],
  ['笑い', 'happy'],
  ['にこり', 'happy'],
  ['口_微笑', 'happy'],
  ['目_微笑', 'happy'],
  ['怒り', 'angry'],
  ['目_怒る', 'angry'],
  ['困る', 'sad'],
  ['困り', 'sad'],
  ['目_困る', 'sad'],
  ['なごみ', 'relaxed'],
  ['びっくり', 'surprised'],
  ['eyeBlink', 'blink'],
  ['eyeBlinkLeft', 'blinkLeft'],
  ['eyeBlinkRight', 'blinkRight'],
  ['jawOpen', 'aa'],
  ['mouthFunnel', 'ou'],
  ['mouthSmile', 'happy'],
];

describe('MMD morph -> VRM expression table', () => {
  it('lists exactly the entries tested here', () => {
    expect(MMD_MORPHS.map(([k, v]) => `${k}=${v}`)).toEqual(ENTRIES.map(([k, v]) => `${k}=${v}`));
  });

  for (const [morph, preset] of ENTRIES) {
    it(`${morph} -> ${preset}`, () => {
      const motion = convertVmd(writeVmd({ morphs: [{ name: morph, frame: 0, weight: 0 }, { name: morph, frame: 10, weight: 0.8 }] }));
      const w = weights(motion, preset);
      expect(w, `${morph} gives ${preset}`).toBeDefined();
      expect(w!.times[0]).toBeCloseTo(0, 6);
      expect(w!.values[0]).toBeCloseTo(0, 6);
      const at10 = w!.times.findIndex((t) => Math.abs(t - 10 / 30) < 1e-4);
      expect(w!.values[at10]).toBeCloseTo(0.8, 5);
      expect(motion.expressions).toHaveLength(1);
    });
  }

  it('two morphs of one preset combine by maximum (あ 0.3 at frame 0, 発音「あ」 0.9 at frame 5)', () => {
    const motion = convertVmd(
      writeVmd({
        morphs: [{ name: 'あ', frame: 0, weight: 0.3 }, { name: 'あ', frame: 10, weight: 0.3 }, { name: '発音「あ」', frame: 0, weight: 0 }, { name: '発音「あ」', frame: 5, weight: 0.9 }, {
          name: '発音「あ」',
          frame: 10,
          weight: 0,
        }],
      }),
    );
    const w = weights(motion, 'aa')!;
    const at = (f: number) => w.values[w.times.findIndex((t) => Math.abs(t - f / 30) < 1e-4)];
    expect(at(0)).toBeCloseTo(0.3, 5);
    expect(at(5)).toBeCloseTo(0.9, 5);
    expect(at(10)).toBeCloseTo(0.3, 5);
  });
});

describeFixtures('MMD morphs of the real motions', () => {
  it("Mei's motions get their vowels, blink and smile (口_微笑 in greeting); Gene's stand gets blink and the ARKit shapes", () => {
    const mei = convertVmd(readFixture('vmd', 'mmdagent', 'mei_wait.vmd'));
    expect(mei.expressions.map((e) => e.name).sort()).toEqual(['aa', 'angry', 'blink', 'ee', 'happy', 'ih', 'oh', 'ou', 'sad']);
    // mei_greeting smiles with 口_微笑 (its only morph above 0, weight 1): happy reaches 1.
    const greeting = convertVmd(readFixture('vmd', 'mmdagent', 'mei_greeting.vmd'));
    expect(Math.max(...weights(greeting, 'happy')!.values)).toBeCloseTo(1, 5);
    const gene = convertVmd(readFixture('vmd', 'gene', 'stand.vmd'), { pmx: readFixture('pmx', 'Gene.pmx') });
    expect(gene.expressions.map((e) => e.name)).toEqual(expect.arrayContaining(['blink', 'blinkLeft', 'blinkRight', 'aa', 'ou', 'happy', 'angry', 'sad', 'surprised']));
  });
});
