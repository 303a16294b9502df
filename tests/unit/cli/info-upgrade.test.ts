import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { cli } from '../../../testkit/cli';
import { describeFixtures, fixturePath, fixtureFiles } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';
import { RawGlb, skeletonJson, channel, NODE } from '../../../testkit/rawVrma';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vrma-cli-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Facts about the fixtures, from ../shared/fixtures/README.md (counted independently of our reader). */
const FACTS: Record<string, { channels: number; keys: number; duration: number; fps: number | null; hipsHeight: number; bones: number }> = {
  'test.vrma': { channels: 3, keys: 21, duration: 3, fps: 2, hipsHeight: 0.85, bones: 51 },
  'test_2023-11_no-specVersion.vrma': { channels: 3, keys: 21, duration: 3, fps: 2, hipsHeight: 0.85, bones: 51 },
  'idle_loop.vrma': { channels: 28, keys: 7000, duration: 10.3751, fps: 24, hipsHeight: 0.9057, bones: 22 },
  'nop.vrma': { channels: 12, keys: 12, duration: 0, fps: null, hipsHeight: 0.75, bones: 53 },
  'hips_spine_twisting.vrma': { channels: 6, keys: 10800, duration: 59.9667, fps: 30, hipsHeight: 0, bones: 17 },
};

describeFixtures('vrma-studio info on every fixture', () => {
  it('--json reports the facts of each file', async () => {
    const files = fixtureFiles('vrma', '.vrma');
    const r = await cli('info', ...files, '--json');
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as Record<string, any>[];
    expect(report).toHaveLength(files.length);
    for (const entry of report) {
      const facts = FACTS[basename(entry.file)];
      expect(facts, entry.file).toBeDefined();
      expect(entry.specVersion).toBe('1.0');
      expect(entry.totalTracks).toBe(facts.channels);
      expect(entry.totalKeys).toBe(facts.keys);
      expect(entry.durationSeconds).toBeCloseTo(facts.duration, 3);
      expect(entry.estimatedFps).toBe(facts.fps);
      expect(entry.restHipsHeight).toBeCloseTo(facts.hipsHeight, 4);
      expect(entry.bones).toHaveLength(facts.bones);
    }
    const idle = report.find((e) => basename(e.file) === 'idle_loop.vrma')!;
    expect(idle.tracks.other).toBe(6); // the in-between torso/neck nodes
    expect(idle.tracks.hipsTranslation).toBe(1);
    const test = report.find((e) => basename(e.file) === 'test.vrma')!;
    expect(test.tracks).toMatchObject({ boneRotations: 1, expressions: 1, lookAt: 1 });
    expect(test.expressions).toEqual([{ name: 'happy', preset: true, animated: true }]);
    expect(test.lookAt).toBe('animated');
    const old = report.find((e) => basename(e.file).startsWith('test_2023'))!;
    expect(old.warnings.join()).toMatch(/specVersion is missing/);
  });

  it('prints a readable block per file, including the odd ones', async () => {
    const r = await cli('info', fixturePath('vrma', 'idle_loop.vrma'), fixturePath('vrma', 'nop.vrma'), fixturePath('vrma', 'hips_spine_twisting.vrma'));
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/idle_loop\.vrma\n {2}spec version {6}1\.0/);
    expect(r.out).toMatch(/keys {14}7000/);
    expect(r.out).toMatch(/fps \(estimated\) {3}- \(single keys\)/);
    expect(r.out).toMatch(/rest hips height {2}0\.0000 \(zero/);
    expect(r.out).toMatch(/fps \(estimated\) {3}24\n/);
  });

  it('exit 1 on a bad file, message on stderr, the other files still reported', async () => {
    const bad = join(dir, 'bad.vrma');
    writeFileSync(bad, 'this is not a glb');
    const missing = join(dir, 'missing.vrma');
    const r = await cli('info', bad, fixturePath('vrma', 'test.vrma'), missing, '--json');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/bad\.vrma: This is not a glTF binary \(\.glb\/\.vrm\/\.vrma\) file \(the first four bytes are not “glTF”\)/);
    expect(r.err).toMatch(/missing\.vrma: no such file/);
    const report = JSON.parse(r.out);
    expect(report.map((e: any) => e.error?.code ?? e.totalKeys)).toEqual(['NOT_GLB', 21, 'NOT_FOUND']);
  });
});

describe('vrma-studio usage errors', () => {
  it('exit 2 on bad usage', async () => {
    expect((await cli('info')).code).toBe(2);
    expect((await cli('info', 'x.vrma', '--bogus')).code).toBe(2);
    expect((await cli('upgrade', 'in.vrma')).code).toBe(2);
    expect((await cli('upgrade', '-o', 'out.vrma')).code).toBe(2);
    expect((await cli('upgrade', 'a', 'b', '-o', 'c')).code).toBe(2);
  });
});

describeFixtures('vrma-studio upgrade on every fixture', () => {
  for (const file of fixtureFiles('vrma', '.vrma')) {
    it(`${basename(file)}: writes a clean spec-1.0 file that validates and loads in three-vrm-animation`, async () => {
      const out = join(dir, `up-${basename(file)}`);
      const r = await cli('upgrade', file, '-o', out);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const bytes = new Uint8Array(readFileSync(out));
      expect((await validateVrmaBytes(bytes)).errors).toBe(0);
      await loadVrmAnimation(bytes);
      const motion = readVrma(bytes);
      expect(motion.warnings).toEqual([]);
      expect(motion.specVersion).toBe('1.0');
      const len = new DataView(bytes.buffer).getUint32(12, true);
      const json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + len)));
      expect(json.extensions.VRMC_vrm_animation.specVersion).toBe('1.0');
      expect(readVrma(new Uint8Array(readFileSync(file))).channels.length).toBe(motion.channels.length);
    });
  }

  it('refuses an existing OUT without --force (file untouched), replaces it with --force, leaves no temp files', async () => {
    const out = join(dir, 'exists.vrma');
    writeFileSync(out, 'keep me');
    const refused = await cli('upgrade', fixturePath('vrma', 'nop.vrma'), '-o', out);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/already exists; use --force/);
    expect(readFileSync(out, 'utf8')).toBe('keep me');
    const forced = await cli('upgrade', fixturePath('vrma', 'nop.vrma'), '-o', out, '--force');
    expect(forced.code).toBe(0);
    expect(readVrma(new Uint8Array(readFileSync(out))).channels).toHaveLength(12);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('upgrades a legacy file (no specVersion, lookAt by translation, STEP) and reports what it fixed', async () => {
    const g = new RawGlb();
    const times = g.floats([0, 1], 'SCALAR');
    const gaze = g.floats([0, 1.7, 5, 2, 1.7, 5], 'VEC3');
    const steps = g.floats([0, 1, 0, 0, 1.1, 0], 'VEC3');
    const legacy = g.build(
      skeletonJson(
        [{
          channels: [channel(0, NODE.lookAt, 'translation'), channel(1, NODE.hips, 'translation')],
          samplers: [{ input: times, output: gaze }, { input: times, output: steps, interpolation: 'STEP' }],
        }],
        { specVersion: null },
      ),
    );
    const input = join(dir, 'legacy.vrma');
    writeFileSync(input, legacy);
    const out = join(dir, 'legacy-up.vrma');
    const r = await cli('upgrade', input, '-o', out);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/fixed: specVersion is missing/);
    expect(r.out).toMatch(/fixed: .*gaze point/);
    const bytes = new Uint8Array(readFileSync(out));
    const animation = await loadVrmAnimation(bytes);
    expect(animation.lookAtTrack).not.toBeNull();
    expect((await validateVrmaBytes(bytes)).errors).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it('exit 1 with a message for an unreadable input', async () => {
    const bad = join(dir, 'truncated.vrma');
    writeFileSync(bad, readFileSync(fixturePath('vrma', 'test.vrma')).subarray(0, 3000));
    const r = await cli('upgrade', bad, '-o', join(dir, 'never.vrma'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/truncated/);
    expect(existsSync(join(dir, 'never.vrma'))).toBe(false);
  });
});
