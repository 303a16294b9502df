/**
 * Issue 16, finding 3: a small .vrma that points many accessors at ONE integer buffer view made the
 * reader materialise one float copy per accessor (6 MB file -> 2.4 GB, convert wrote 1.2 GB). The
 * reader now keeps one budget of decoded numbers (DECODED_FLOATS_PER_BYTE x file size) over all
 * accessors and channels and refuses such a file with MotionError('TOO_LARGE') before allocating.
 * Also: a JSON chunk naming millions of nodes is refused before any per-node work.
 */
import { describe, expect, it } from 'vitest';
import { readVrma, DECODED_FLOATS_PER_BYTE, MAX_NODES } from '../../shared/vrma/read';
import { MotionError } from '../../shared/errors';
import { packGlb } from '../../shared/gltf/glb';
import { sharedViewVrma } from './hostileFiles';

function decodedFloats(bytes: Uint8Array): number {
  const m = readVrma(bytes);
  return m.channels.reduce((n, c) => n + c.times.length + c.values.length, 0);
}

describe('security: .vrma decoded-size budget (finding 3)', () => {
  it('refuses 150 accessors over one int16 view with TOO_LARGE (before the fix: ~30 M floats decoded from 600 kB)', () => {
    const bytes = sharedViewVrma(150, 50_000);
    expect(bytes.length).toBeLessThan(700_000);
    let error: unknown;
    try {
      const floats = decodedFloats(bytes);
      // Reached only without the budget: report the blow-up so the failure says what happened.
      error = new Error(`read ${bytes.length} bytes into ${floats} decoded floats (${(floats / bytes.length).toFixed(0)} per byte)`);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MotionError);
    expect((error as MotionError).code).toBe('TOO_LARGE');
    expect((error as MotionError).message).toMatch(/more than a file of this size can justify/);
  });

  it('still reads the same layout when few channels share the view (an honest quantized file)', () => {
    const bytes = sharedViewVrma(3, 50_000);
    const floats = decodedFloats(bytes);
    // 3 channels x 50,000 keys x (1 time + 4 components), well inside the budget.
    expect(floats).toBe(3 * 50_000 * 5);
    expect(floats / bytes.length).toBeLessThan(DECODED_FLOATS_PER_BYTE);
  });

  it('refuses a JSON chunk with more nodes than a motion can have before walking them', () => {
    const json = {
      asset: { version: '2.0' },
      extensionsUsed: ['VRMC_vrm_animation'],
      extensions: { VRMC_vrm_animation: { specVersion: '1.0' } },
      nodes: Array.from({ length: MAX_NODES + 1 }, () => ({})),
    };
    expect(() => readVrma(packGlb(json))).toThrow(expect.objectContaining({ code: 'TOO_LARGE' }));
  });
});
