/** `vrma-studio optimize --quantize` end to end, and `info` naming the encoding and bytes per key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../../testkit/cli';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import { maxPoseError } from '../../../shared/edits/poseError';
import { validateVrmaBytes } from '../../../testkit/validate';
import { wavyMotion, withRotatedRest } from '../edits/editTestKit';

let dir: string;
let walk: string;
const out = (name: string) => join(dir, name);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'vrma-quantize-cli-'));
  walk = join(dir, 'walk.vrma');
  writeFileSync(walk, writeVrma(withRotatedRest(wavyMotion({ duration: 4, fps: 60 }))));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('optimize --quantize', () => {
  it('writes a smaller valid file whose error, measured after reading it back, is within the tolerance', async () => {
    const plain = await cli('optimize', walk, '-o', out('float.vrma'));
    const small = await cli('optimize', walk, '--quantize', '-o', out('small.vrma'));
    expect(plain.code).toBe(0);
    expect(small.code).toBe(0);
    const floatBytes = readFileSync(out('float.vrma'));
    const smallBytes = new Uint8Array(readFileSync(out('small.vrma')));
    expect(smallBytes.length).toBeLessThan(floatBytes.length * 0.8);
    expect((await validateVrmaBytes(smallBytes)).errors).toBe(0);
    const printed = /rotation ([\d.]+) rad, position ([\d.]+) mm/.exec(small.out)!;
    const measured = maxPoseError(readVrma(new Uint8Array(readFileSync(walk))), readVrma(smallBytes));
    expect(Number(printed[1])).toBeCloseTo(measured.rotation, 5);
    expect(measured.rotation).toBeLessThanOrEqual(0.004);
    expect(measured.position).toBeLessThanOrEqual(0.002 * (1 + 1e-9));
    expect(Number(/bytes \d+ -> (\d+)/.exec(small.out)![1])).toBe(smallBytes.length);
    // The reader says once (not per track) that it converted the 16-bit rotations.
    expect(readVrma(smallBytes).warnings.filter((w) => /normalized integers/.test(w.text))).toHaveLength(1);
  });

  it('--fast keeps more keys than the default search, both within the bound', async () => {
    const fast = await cli('optimize', walk, '--fast', '-o', out('fast.vrma'));
    const best = await cli('optimize', walk, '-o', out('best.vrma'));
    const kept = (s: string) => Number(/keys \d+ -> (\d+)/.exec(s)![1]);
    expect(kept(best.out)).toBeLessThan(kept(fast.out));
    for (const r of [fast, best]) expect(Number(/rotation ([\d.]+) rad/.exec(r.out)![1])).toBeLessThanOrEqual(0.004);
  });

  it('info shows the encoding and the bytes per key (text and --json)', async () => {
    await cli('optimize', walk, '--quantize', '-o', out('q.vrma'), '--force');
    await cli('optimize', walk, '-o', out('f.vrma'), '--force');
    const q = await cli('info', out('q.vrma'));
    const f = await cli('info', out('f.vrma'));
    expect(q.out).toMatch(/encoding +quantized \(rotations int16\), [\d.]+ bytes per key/);
    expect(f.out).toMatch(/encoding +float, [\d.]+ bytes per key/);
    const json = JSON.parse((await cli('info', out('q.vrma'), out('f.vrma'), '--json')).out) as { encoding: string; bytesPerKey: number; totalKeys: number }[];
    expect(json.map((j) => j.encoding)).toEqual(['quantized', 'float']);
    expect(json[0].bytesPerKey).toBeCloseTo(readFileSync(out('q.vrma')).length / json[0].totalKeys, 6);
    // 16-bit rotations: fewer bytes per key than the same optimization written as floats.
    expect(json[0].bytesPerKey).toBeLessThan(json[1].bytesPerKey);
    // Where the bytes go: the parts add up to the file, and the quantized rotations take fewer bytes.
    expect(q.out).toMatch(/bytes +\d+: JSON \d+, key times \d+ \(\d+ arrays\), rotations \d+, translations \d+, headers\+padding \d+/);
    const parts = json.map((j) => (j as unknown as { bytes: Record<string, number> }).bytes);
    parts.forEach((b, i) => {
      expect(b.json + b.times + b.rotations + b.translations + b.otherValues + b.overhead).toBe(b.total);
      expect(b.total).toBe(readFileSync(out(i ? 'f.vrma' : 'q.vrma')).length);
      expect(b.overhead).toBeLessThan(64); // GLB and chunk headers (28 bytes) and padding
    });
    expect(parts[0].rotations).toBeLessThan(parts[1].rotations * 0.6);
    expect(parts[0].json).toBeLessThan(parts[1].json);
  });
});
