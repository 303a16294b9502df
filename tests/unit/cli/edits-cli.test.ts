/** Every edit subcommand end to end: arguments, atomic no-overwrite writes, valid output, reports. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../../testkit/cli';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { boneChannel, durationOf } from '../../../shared/motion/types';
import { describeFixtures, fixturePath } from '../../../testkit/fixtures';
import { validateVrmaBytes } from '../../../testkit/validate';
import { wavyMotion, withRotatedRest } from '../edits/editTestKit';

let dir: string;
let walk: string;
let other: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vrma-edits-cli-'));
  walk = join(dir, 'walk.vrma');
  other = join(dir, 'other.vrma');
  writeFileSync(walk, writeVrma(withRotatedRest(wavyMotion({ duration: 4, fps: 30 }))));
  writeFileSync(other, writeVrma(wavyMotion({ duration: 2, fps: 24, seed: 9 })));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const out = (name: string) => join(dir, name);

async function expectValid(path: string) {
  const bytes = new Uint8Array(readFileSync(path));
  const report = await validateVrmaBytes(bytes);
  expect(report.errors, report.messages.join('\n')).toBe(0);
  return readVrma(bytes);
}

describe('edit subcommands', () => {
  it('each one writes a valid file with the expected effect', async () => {
    const src = readVrma(new Uint8Array(readFileSync(walk)));
    const d = durationOf(src);
    const cases: [string[], (m: ReturnType<typeof readVrma>) => void][] = [
      [['keep', walk, '--from', '1', '--to', '2.5'], (m) => expect(durationOf(m)).toBeCloseTo(1.5, 4)],
      [['delete', walk, '--from', '1', '--to', '2', '--blend', '0.25'], (m) => expect(durationOf(m)).toBeCloseTo(d - 1.25, 4)],
      [['speed', walk, '--factor', '2'], (m) => expect(durationOf(m)).toBeCloseTo(d / 2, 4)],
      [['reverse', walk], (m) => expect(durationOf(m)).toBeCloseTo(d, 4)],
      [['mirror', walk], (m) => expect(boneChannel(m, 'rightIndexProximal', 'rotation')).toBeDefined()],
      [['in-place', walk], (m) => {
        const c = boneChannel(m, 'hips', 'translation')!;
        expect(c.values[c.values.length - 1]).not.toBe(boneChannel(src, 'hips', 'translation')!.values[c.values.length - 1]);
      }],
      [['smooth', walk, '--sigma', '0.1'], (m) => expect(m.channels.length).toBe(src.channels.length)],
      [['loop', walk, '--blend', '0.5'], (m) => expect(durationOf(m)).toBeCloseTo(d - 0.5, 4)],
      [['strip', walk, '--fingers'], (m) => expect(m.channels.length).toBe(src.channels.length - 2)],
      [['optimize', walk], (m) => expect(m.channels.reduce((s, c) => s + c.times.length, 0)).toBeLessThan(src.channels.reduce((s, c) => s + c.times.length, 0))],
      [['fix', walk], (m) => expect(durationOf(m)).toBeCloseTo(d, 4)],
      [['join', walk, other, '--blend', '0.3'], (m) => expect(durationOf(m)).toBeCloseTo(d - 0.3 + 2, 3)],
      [['resample', walk, '--fps', '24'], (m) => expect(m.channels[0].times.length).toBe(Math.floor(d * 24 + 1e-6) + 1)],
    ];
    for (const [argv, check] of cases) {
      const target = out(`${argv[0]}.vrma`);
      const r = await cli(...argv, '-o', target);
      expect(r.err, argv.join(' ')).toBe('');
      expect(r.code, argv.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^wrote ${target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(\\d+ bytes`));
      check(await expectValid(target));
    }
  });

  it('optimize prints keys and bytes before and after and the measured maximum error', async () => {
    const r = await cli('optimize', walk, '--rot-tol', '0.01', '--pos-tol', '0.005', '-o', out('opt2.vrma'));
    expect(r.code).toBe(0);
    const keys = /keys (\d+) -> (\d+)/.exec(r.out)!;
    const bytes = /bytes (\d+) -> (\d+)/.exec(r.out)!;
    const err = /rotation ([\d.]+) rad, position ([\d.]+) mm/.exec(r.out)!;
    expect(Number(keys[2])).toBeLessThan(Number(keys[1]));
    expect(Number(bytes[1])).toBe(readFileSync(walk).length);
    expect(Number(bytes[2])).toBe(readFileSync(out('opt2.vrma')).length);
    expect(Number(err[1])).toBeLessThanOrEqual(0.01);
    expect(Number(err[2])).toBeLessThanOrEqual(5);
  });

  it('never overwrites without --force, and replaces with it', async () => {
    const target = out('exists.vrma');
    writeFileSync(target, 'keep me');
    const r = await cli('reverse', walk, '-o', target);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/already exists; use --force/);
    expect(readFileSync(target, 'utf8')).toBe('keep me');
    const forced = await cli('reverse', walk, '-o', target, '--force');
    expect(forced.code).toBe(0);
    await expectValid(target);
  });

  it('bad usage exits 2, nonsense parameters and bad files exit 1 with a clear message', async () => {
    expect((await cli('speed', walk, '--factor', 'fast', '-o', out('x.vrma'))).code).toBe(2);
    expect((await cli('speed', walk, '--factor', '2')).err).toMatch(/-o OUT is required/);
    expect((await cli('keep', walk, '--from', '1', '-o', out('x.vrma'))).err).toMatch(/--to is required/);
    expect((await cli('join', walk, '-o', out('x.vrma'))).code).toBe(2);
    expect((await cli('strip', walk, '--bogus', '-o', out('x.vrma'))).code).toBe(2);
    const speed = await cli('speed', walk, '--factor', '0', '-o', out('x.vrma'));
    expect(speed.code).toBe(1);
    expect(speed.err).toMatch(/factor must be between 0.001 and 1000, got 0/);
    const range = await cli('keep', walk, '--from', '2', '--to', '99', '-o', out('x.vrma'));
    expect(range.code).toBe(1);
    expect(range.err).toMatch(/after the end of the motion/);
    expect((await cli('delete', walk, '--from', '1', '--to', '2', '--blend=-1', '-o', out('x.vrma'))).err).toMatch(/blend must not be negative/);
    expect((await cli('strip', walk, '-o', out('x.vrma'))).err).toMatch(/nothing to strip/);
    const missing = await cli('mirror', join(dir, 'nope.vrma'), '-o', out('x.vrma'));
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no such file/);
    writeFileSync(out('junk.vrma'), 'not a glb at all');
    const junk = await cli('mirror', out('junk.vrma'), '-o', out('x.vrma'));
    expect(junk.code).toBe(1);
    expect(existsSync(out('x.vrma'))).toBe(false);
  });

  it('every edit subcommand has help', async () => {
    for (const name of ['keep', 'delete', 'speed', 'reverse', 'mirror', 'in-place', 'smooth', 'loop', 'strip', 'optimize', 'fix', 'join', 'resample']) {
      const r = await cli(name, '--help');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: vrma-studio ${name} .*-o OUT`));
    }
  });
});

describeFixtures('edit subcommands on real files', () => {
  it('optimize, loop and mirror on hips_spine_twisting.vrma and idle_loop.vrma', async () => {
    for (const name of ['hips_spine_twisting.vrma', 'idle_loop.vrma']) {
      const input = fixturePath('vrma', name);
      for (const cmd of [['optimize'], ['loop', '--blend', '0.5'], ['mirror'], ['fix']]) {
        const target = out(`${name}.${cmd[0]}.vrma`);
        const r = await cli(cmd[0], input, ...cmd.slice(1), '-o', target);
        expect(r.code, r.err).toBe(0);
        await expectValid(target);
        if (cmd[0] === 'optimize') console.log(`${name}: ${r.out.split('\n').slice(1).join(' | ')}`);
      }
    }
  });
});
