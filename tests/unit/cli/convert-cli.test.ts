/**
 * `vrma-studio convert` and `pose-report` run in-process (runCli) on temporary copies of real fixtures:
 * folders walk recursively, outputs land next to sources or under --out-dir with sub-folders kept,
 * existing files survive without --force, a broken file fails alone (exit 1), batches run on worker
 * threads, and the pose report prints and emits JSON.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../../main/cli/runCli';
import { readVrma } from '../../../shared/vrma/read';
import { boneChannel } from '../../../shared/motion/types';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';

interface Run {
  code: number;
  out: string[];
  err: string[];
}

async function cli(...argv: string[]): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), isTTY: false });
  return { code, out, err };
}

let dir = '';

describeFixtures('vrma-studio convert / pose-report', () => {
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'vrma-convert-cli-'));
    mkdirSync(join(dir, 'in', 'nested'), { recursive: true });
    copyFileSync(fixturePath('bvh', 'pybvh_bvh_test1.bvh'), join(dir, 'in', 'test1.bvh'));
    copyFileSync(fixturePath('bvh', 'pybvh_standard_skeleton.bvh'), join(dir, 'in', 'nested', 'standard.bvh'));
    copyFileSync(fixturePath('bvh', 'cmu_12_01_walk.bvh'), join(dir, 'walk.bvh'));
    writeFileSync(join(dir, 'in', 'nested', 'broken.bvh'), 'HIERARCHY\nROOT Hips\n{\n\tOFFSET 0 0\n');
    writeFileSync(join(dir, 'in', 'notes.txt'), 'not a motion');
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('converts a folder recursively next to the sources; the broken file fails alone with its line', async () => {
    const r = await cli('convert', join(dir, 'in'), '--jobs', '2');
    expect(r.code).toBe(1);
    expect(r.err.join('\n')).toMatch(/FAIL .*broken\.bvh: This BVH file cannot be read \(line 4: OFFSET needs 3 numbers/);
    const summary = r.out.at(-1)!;
    expect(summary).toMatch(/^converted 2 of 3 file\(s\), 1 failed in [\d.]+ s on 2 worker threads$/);
    for (const p of [join(dir, 'in', 'test1.vrma'), join(dir, 'in', 'nested', 'standard.vrma')]) {
      const motion = readVrma(new Uint8Array(readFileSync(p)));
      expect(boneChannel(motion, 'leftUpperLeg', 'rotation')).toBeDefined();
    }
    expect(existsSync(join(dir, 'in', 'nested', 'broken.vrma'))).toBe(false);
    expect(existsSync(join(dir, 'in', 'notes.vrma'))).toBe(false);
  });

  it('never overwrites without --force; --force replaces', async () => {
    const target = join(dir, 'in', 'test1.vrma');
    writeFileSync(target, 'keep me');
    const refused = await cli('convert', join(dir, 'in', 'test1.bvh'));
    expect(refused.code).toBe(1);
    expect(refused.err.join('\n')).toMatch(/already exists; use --force/);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    const forced = await cli('convert', join(dir, 'in', 'test1.bvh'), '--force');
    expect(forced.code).toBe(0);
    expect(forced.out.at(-1)).toMatch(/^converted 1 of 1 file\(s\) in/);
    expect(readVrma(new Uint8Array(readFileSync(target))).channels.length).toBeGreaterThan(10);
  });

  it('--out-dir keeps sub-folders, --fps re-keys, --optimize drops redundant keys', async () => {
    const outDir = join(dir, 'out');
    const r = await cli('convert', join(dir, 'in', 'nested', 'standard.bvh'), join(dir, 'walk.bvh'), '--out-dir', outDir, '--fps', '30');
    expect(r.code).toBe(0);
    const walk = readVrma(new Uint8Array(readFileSync(join(outDir, 'walk.vrma'))));
    const times = boneChannel(walk, 'hips', 'rotation')!.times;
    expect(times[1] - times[0]).toBeCloseTo(1 / 30, 5);
    // 130 whole 30-fps frames past the first, then the source's own end (523/120 s, between frames) as the last key.
    expect(times.length).toBe(Math.floor((523 / 120) * 30 + 1e-6) + 2);
    // (the file's Frame Time is rounded, 0.0083333: its end is 4.35832 s, within 5e-5 of 523/120)
    expect(times[times.length - 1]).toBeCloseTo(523 / 120, 4);

    const folder = await cli('convert', join(dir, 'in'), '--out-dir', join(dir, 'tree'), '--jobs', '1');
    expect(folder.code).toBe(1); // the broken file
    expect(existsSync(join(dir, 'tree', 'nested', 'standard.vrma'))).toBe(true);
    expect(existsSync(join(dir, 'tree', 'test1.vrma'))).toBe(true);

    const plain = join(dir, 'plain');
    const optimized = join(dir, 'optimized');
    expect((await cli('convert', join(dir, 'walk.bvh'), '--out-dir', plain)).code).toBe(0);
    expect((await cli('convert', join(dir, 'walk.bvh'), '--out-dir', optimized, '--optimize')).code).toBe(0);
    expect(statSync(join(optimized, 'walk.vrma')).size).toBeLessThan(statSync(join(plain, 'walk.vrma')).size);
  });

  it('usage errors exit 2; a .vrma cannot be converted onto itself', async () => {
    expect((await cli('convert')).code).toBe(2);
    expect((await cli('convert', join(dir, 'walk.bvh'), '--fps', 'fast')).code).toBe(2);
    expect((await cli('convert', join(dir, 'walk.bvh'), '--unit', 'furlong')).code).toBe(2);
    const self = await cli('convert', join(dir, 'in', 'test1.vrma'));
    expect(self.code).toBe(1);
    expect(self.err.join('\n')).toMatch(/overwrite its source; choose another folder\) \(give --out-dir\)/);
    const missing = await cli('convert', join(dir, 'nope.bvh'));
    expect(missing.code).toBe(1);
    expect(missing.err.join('\n')).toMatch(/no such file/);
  });

  it('pose-report prints the pose and JSON with the same numbers', async () => {
    const file = join(dir, 'plain', 'walk.vrma');
    const text = await cli('pose-report', file, '--time', '1');
    expect(text.code).toBe(0);
    const body = text.out.join('\n');
    for (const label of ['hips height', 'knee  left', 'elbow right', 'shoulder twist', 'left foot']) expect(body).toContain(label);
    const json = await cli('pose-report', file, '--time', '1', '--json');
    expect(json.code).toBe(0);
    const report = JSON.parse(json.out.join('\n'));
    expect(report.time).toBe(1);
    expect(report.hipsHeight).toBeGreaterThan(0.6);
    expect(report.hipsHeight).toBeLessThan(1.1);
    expect(report.knees.left.direction).not.toBe('backward');
    expect(body).toContain(`${report.hipsHeight.toFixed(3)} m`);
    expect((await cli('pose-report', file, '--time', 'soon')).code).toBe(2);
    expect((await cli('pose-report', join(dir, 'missing.vrma'))).code).toBe(1);
  });
});
