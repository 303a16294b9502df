/**
 * Issue 16, finding 3 (what was left alone): a JSON chunk of 4 M empty nodes was refused only after
 * JSON.parse, which alone grew the reader's peak memory by ~400 MB for a 12 MB file. The reader now
 * counts the chunk's objects and arrays first (shared/gltf/jsonShape.ts) and refuses beyond
 * MAX_JSON_CONTAINERS with MotionError('TOO_LARGE') without parsing.
 * Memory is measured in a fresh process (tests/security/probes/readPeak.ts), as VmHWM growth during
 * the read; Linux only (/proc), skipped elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countJsonContainers } from '../../shared/gltf/jsonShape';
import { MAX_JSON_CONTAINERS, readVrma } from '../../shared/vrma/read';
import { emptyNodesVrma } from './hostileFiles';

const PROBE = join(__dirname, 'probes', 'readPeak.ts');
const hasProc = existsSync('/proc/self/status');

function probe(nodes: number): { code: string; message: string; fileBytes: number; peakGrowthMb: number } {
  const out = execFileSync(process.execPath, ['--import', 'tsx', PROBE, String(nodes)], { encoding: 'utf8', timeout: 60_000 });
  return JSON.parse(out.trim().split('\n').pop()!);
}

const text = (s: string) => new TextEncoder().encode(s);

describe('security: the JSON chunk is bounded before it is parsed', () => {
  it('counts objects and arrays, not braces inside strings (escaped quotes included)', () => {
    expect(countJsonContainers(text('{"a":[1,{"b":[]}],"c":"{[\\"{[","d":"\\\\"}'))).toBe(4);
    expect(countJsonContainers(text('[' + '{},'.repeat(999) + '{}]'))).toBe(1001);
    // The scan stops as soon as the limit is passed.
    expect(countJsonContainers(text('[' + '[],'.repeat(999) + '[]]'), 10)).toBe(11);
  });

  it.skipIf(!hasProc)('refuses 4 M empty nodes with TOO_LARGE, peak memory growing < 40 MB (before: +400 MB in JSON.parse)', () => {
    const r = probe(4_000_000);
    expect(r.fileBytes).toBeGreaterThan(12_000_000);
    expect(r.code).toBe('TOO_LARGE');
    expect(r.message).toMatch(new RegExp(`more than ${MAX_JSON_CONTAINERS.toLocaleString('en')} objects and arrays, far more than this kind of file needs`));
    // The 12 MB file is built before the measurement starts; the scan itself allocates nothing.
    expect(r.peakGrowthMb).toBeLessThan(40);
  });

  it.skipIf(!hasProc)('a chunk just inside the bound is parsed, at bounded cost (then the node count refuses it)', () => {
    // The head holds 4 objects and 2 arrays (root, asset, extensions, VRMC_vrm_animation; extensionsUsed, nodes).
    const r = probe(MAX_JSON_CONTAINERS - 6);
    // Parsed: the refusal is the reader's node check, which runs on the parsed JSON.
    expect(r.code).toBe('TOO_LARGE');
    expect(r.message).toMatch(/the file has 262,138 nodes; a motion has far fewer/);
    // Measured ~26 MB for 262,144 empty objects: the bound's worst case.
    expect(r.peakGrowthMb).toBeLessThan(120);
  });

  it('one object more than the bound is refused, one fewer is not (the count is exact)', () => {
    const at = emptyNodesVrma(MAX_JSON_CONTAINERS - 6);
    const over = emptyNodesVrma(MAX_JSON_CONTAINERS - 5);
    expect(() => readVrma(over)).toThrow(expect.objectContaining({ code: 'TOO_LARGE', message: expect.stringMatching(/objects and arrays, far more than this kind of file needs/) }));
    expect(() => readVrma(at)).toThrow(expect.objectContaining({ code: 'TOO_LARGE', message: expect.stringMatching(/262,138 nodes/) }));
  });
});
