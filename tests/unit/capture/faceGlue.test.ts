/**
 * Issue 29: @mediapipe/face_mesh's wasm glue as the build serves it (scripts/evalFreeEmbind.ts). The
 * package's file builds functions from strings; the patched one has no code generation left and still
 * starts its WebAssembly module where code generation from strings is refused: a Node vm context with
 * `codeGeneration: { strings: false }`, what the page's CSP without 'unsafe-eval' does in Chromium. The
 * package's own file fails there with EvalError, so the test tells the two apart.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CODE_FROM_STRINGS, evalFreeEmbind } from '../../../scripts/evalFreeEmbind';

const DIR = dirname(createRequire(import.meta.url).resolve('@mediapipe/face_mesh/package.json'));
const GLUES = ['face_mesh_solution_simd_wasm_bin', 'face_mesh_solution_wasm_bin'];

interface EmbindList {
  push_back(v: unknown): void;
  size(): number;
  get(i: number): unknown;
  delete(): void;
}
interface FaceModule {
  StringList: new() => EmbindList;
  FloatList: new() => EmbindList;
  SolutionWasm: unknown;
  PacketListener: unknown;
}

/** The glue run as a worker would (no DOM), where strings cannot become code; its module once ready. */
async function startGlue(source: string, wasm: string): Promise<FaceModule> {
  const context: Record<string, unknown> = { console, WebAssembly, TextDecoder, setTimeout, clearTimeout, performance, crypto };
  Object.assign(context, {
    self: context,
    globalThis: context,
    location: { href: 'https://studio.invalid/assets/glue.js' },
    importScripts: () => {
      throw new Error('no scripts here');
    },
  });
  vm.createContext(context, { codeGeneration: { strings: false, wasm: true } });
  vm.runInContext(source, context, { filename: 'glue.js' });
  const create = vm.runInContext('createMediapipeSolutionsWasm', context) as (m: Record<string, unknown>) => Promise<FaceModule>;
  return create({ wasmBinary: readFileSync(join(DIR, `${wasm}.wasm`)), locateFile: (f: string) => f, print: () => {}, printErr: () => {} });
}

describe("the face model's glue without eval", () => {
  for (const glue of GLUES) {
    const original = readFileSync(join(DIR, `${glue}.js`), 'utf8');

    it(`${glue}.js: the package's builds functions from strings, the patched one does not`, () => {
      expect(CODE_FROM_STRINGS.filter((re) => re.test(original)).length).toBeGreaterThan(0);
      const patched = evalFreeEmbind(original);
      for (const re of CODE_FROM_STRINGS) expect(re.test(patched), String(re)).toBe(false);
      expect(patched).not.toContain('new Function(');
      expect(patched).not.toMatch(/[^\w$.]eval\(/);
      // Only the three functions changed: the rest of the glue is the package's, byte for byte.
      expect(Math.abs(patched.length - original.length)).toBeLessThan(3000);
      expect(patched.slice(0, 20_000)).toBe(original.slice(0, 20_000));
    });

    it(`${glue}.js: the patched glue starts its module where eval is refused, the package's cannot`, async () => {
      await expect(startGlue(original, glue)).rejects.toThrow(/Code generation from strings disallowed/);
      const m = await startGlue(evalFreeEmbind(original), glue);
      // face_mesh.js's classes are bound; calling them goes through the replaced invokers (a class
      // method with a std::string argument needs the destructor list, a float one does not).
      expect(typeof m.SolutionWasm).toBe('function');
      expect(typeof m.PacketListener).toBe('function');
      const names = new m.StringList();
      names.push_back('顔 face');
      names.push_back('b');
      expect([names.size(), names.get(0), names.get(1)]).toEqual([2, '顔 face', 'b']);
      expect(() => (names.push_back as (...a: unknown[]) => void)('x', 'y')).toThrow(/called with 2 arguments, expected 1/);
      names.delete();
      const floats = new m.FloatList();
      floats.push_back(1.5);
      expect(floats.get(0)).toBe(1.5);
      expect((m.StringList as unknown as { name: string }).name).toBe('StringList');
      floats.delete();
    }, 120_000);
  }

  it('a glue that is not the one expected is refused, not half patched', () => {
    expect(() => evalFreeEmbind('function createNamedFunction(a){return 1}')).toThrow(/expected one function craftInvokerFunction\(/);
    const twice = readFileSync(join(DIR, `${GLUES[0]}.js`), 'utf8');
    expect(() => evalFreeEmbind(twice + twice)).toThrow(/found several/);
  });
});
