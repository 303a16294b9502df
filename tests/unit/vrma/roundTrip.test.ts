import { describe, expect, it } from 'vitest';
import { makeLongMotion } from '../../../testkit/longMotion';
import { basename } from 'node:path';
import { readFileSync } from 'node:fs';
import { describeFixtures, fixtureFiles } from '../../../testkit/fixtures';
import { readVrma } from '../../../shared/vrma/read';
import { writeVrma } from '../../../shared/vrma/write';
import type { Motion } from '../../../shared/motion/types';
import { validateVrmaBytes } from '../../../testkit/validate';
import { loadVrmAnimation } from '../../../testkit/threeVrmAnimation';

const files = fixtureFiles('vrma', '.vrma');

function bytesOf(a: Float32Array): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Deep equality where typed arrays must match byte for byte (NaN payloads and -0 included). */
function expectSameMotion(a: Motion, b: Motion): void {
  expect(b.channels.length).toBe(a.channels.length);
  a.channels.forEach((ca, i) => {
    const cb = b.channels[i];
    expect({ node: cb.node, path: cb.path }).toEqual({ node: ca.node, path: ca.path });
    expect(Buffer.from(bytesOf(cb.times)).equals(Buffer.from(bytesOf(ca.times)))).toBe(true);
    expect(Buffer.from(bytesOf(cb.values)).equals(Buffer.from(bytesOf(ca.values)))).toBe(true);
  });
  // Warnings describe the source file; the rewritten file is clean, so it may only have fewer.
  const strip = (m: Motion) => ({ ...m, channels: m.channels.length, warnings: [] });
  expect(strip(b)).toEqual(strip(a));
  for (const w of b.warnings) expect(a.warnings).toContainEqual(w);
}

describeFixtures('VRMA round trip on every fixture', () => {
  it('finds the fixture files', () => {
    expect(files.length).toBeGreaterThanOrEqual(5);
  });

  for (const file of files) {
    const name = basename(file);
    it(`${name}: read(write(read(f))) equals read(f) bit for bit`, () => {
      const first = readVrma(new Uint8Array(readFileSync(file)));
      const again = readVrma(writeVrma(first));
      expectSameMotion(first, again);
      // Writing is deterministic: a second write gives the same bytes.
      expect(Buffer.from(writeVrma(again)).equals(Buffer.from(writeVrma(first)))).toBe(true);
    });

    it(`${name}: the written file has 0 glTF-Validator errors and loads in three-vrm-animation`, async () => {
      const motion = readVrma(new Uint8Array(readFileSync(file)));
      const written = writeVrma(motion);
      const report = await validateVrmaBytes(written);
      expect(report.messages.filter((m) => m.startsWith('ERROR'))).toEqual([]);
      expect(report.errors).toBe(0);
      const animation = await loadVrmAnimation(written);
      const bones = motion.channels.filter((c) => c.path === 'rotation' && motion.humanoid.nodeToBone.has(c.node)).length;
      expect(animation.humanoidTracks.rotation.size).toBe(bones);
      expect(animation.expressionTracks.preset.size + animation.expressionTracks.custom.size).toBe(
        motion.channels.filter((c) => motion.expressions.some((e) => e.node === c.node)).length,
      );
      expect(animation.lookAtTrack !== null).toBe(motion.channels.some((c) => c.node === motion.lookAtNode));
    });

    it(`${name}: the writer stores identical time arrays once, with min/max, LINEAR, 4-byte aligned, no unused views`, () => {
      const motion = readVrma(new Uint8Array(readFileSync(file)));
      const written = writeVrma(motion);
      const dv = new DataView(written.buffer, written.byteOffset);
      const jsonLength = dv.getUint32(12, true);
      const json = JSON.parse(new TextDecoder().decode(written.subarray(20, 20 + jsonLength)));
      expect(json.animations).toHaveLength(1);
      const samplers = json.animations[0].samplers as { input: number; output: number; interpolation: string }[];
      expect(samplers.every((s) => s.interpolation === 'LINEAR')).toBe(true);
      const inputs = new Set(samplers.map((s) => s.input));
      const distinctTimes = new Set(motion.channels.map((c) => Array.from(c.times).join(',')));
      expect(inputs.size).toBe(distinctTimes.size);
      for (const i of inputs) {
        const acc = json.accessors[i];
        expect(acc.min).toHaveLength(1);
        expect(acc.max).toHaveLength(1);
      }
      for (const acc of json.accessors) expect(((acc.byteOffset ?? 0) + json.bufferViews[acc.bufferView].byteOffset) % 4).toBe(0);
      const usedViews = new Set(json.accessors.map((a: { bufferView: number }) => a.bufferView));
      expect(usedViews.size).toBe(json.bufferViews.length);
      expect(written.length % 4).toBe(0);
    });
  }
});

describe('VRMA round trip on a generated long motion (the benchmark generator, 20 s)', () => {
  it('writes a valid file that loads in three-vrm-animation and reads back bit for bit', async () => {
    const motion = makeLongMotion(20, 60);
    expect(motion.channels).toHaveLength(61);
    const bytes = writeVrma(motion);
    const report = await validateVrmaBytes(bytes);
    expect(report.errors).toBe(0);
    expect(report.warnings).toBe(0);
    const animation = await loadVrmAnimation(bytes);
    expect(animation.humanoidTracks.rotation.size).toBe(55);
    expect(animation.expressionTracks.preset.size).toBe(5);
    expect(animation.duration).toBeCloseTo(20, 5);
    const again = readVrma(bytes);
    // Key data survives bit for bit; the JSON side only loses the -0s buildMotion puts in mirrored offsets.
    expect(again.channels.map((c) => Buffer.from(bytesOf(c.values)).toString('base64'))).toEqual(
      motion.channels.map((c) => Buffer.from(bytesOf(c.values)).toString('base64')),
    );
    expect(again.channels.every((c, i) => Buffer.from(bytesOf(c.times)).equals(Buffer.from(bytesOf(motion.channels[i].times))))).toBe(true);
    expectSameMotion(again, readVrma(writeVrma(again)));
  });
});
