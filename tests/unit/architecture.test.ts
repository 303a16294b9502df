/**
 * Which folder may import what (the layering the whole studio relies on):
 * - shared/ imports nothing from three, electron, Node built-ins, and uses no DOM or Node globals;
 * - renderer/ imports no Node built-ins or electron;
 * - preload/ imports only electron and the contract types in shared/contract;
 * - main/services, main/cli and main/host import no electron (they run in the CLI, the browser host
 *   and the tests as well); main/ as a whole imports nothing from renderer/ or preload/.
 * - in shared/, the format table's codecs (shared/formats/codecs.ts) import the exporters of
 *   shared/export, and nothing in shared/export reaches back to the codecs: one dispatch, no cycle.
 * - tests/ and bench/ share one kit, testkit/: tests never import bench/, bench/ never imports tests/,
 *   and testkit/ imports neither (the kit sits below both).
 * Layers inside shared/ and renderer/ are in layers.test.ts. The import rules are read from the sources; the globals rule is enforced by type-checking shared/
 * against ES2022 plus shared/platform.d.ts only.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname, sep } from 'node:path';
import { execFileSync } from 'node:child_process';
import { builtinModules } from 'node:module';
import { importsOf, ROOT, sourceFiles } from '../../testkit/importGraph';

const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isNodeBuiltin = (s: string) => s.startsWith('node:') || NODE_BUILTINS.has(s) || NODE_BUILTINS.has(s.split('/')[0]);
const isElectron = (s: string) => s === 'electron' || s.startsWith('electron/');
const isThree = (s: string) => s === 'three' || s.startsWith('three/') || s.startsWith('@pixiv/');

function violations(dir: string, rule: (spec: string, file: string) => string | null): string[] {
  const found: string[] = [];
  for (const file of sourceFiles(dir)) {
    for (const spec of importsOf(readFileSync(file, 'utf8'))) {
      const why = rule(spec, file);
      if (why) found.push(`${relative(ROOT, file)} imports "${spec}": ${why}`);
    }
  }
  return found;
}

function resolvesInto(spec: string, file: string, folder: string): boolean {
  if (!spec.startsWith('.')) return false;
  const target = resolve(dirname(file), spec);
  return (target + sep).startsWith(join(ROOT, folder) + sep);
}

/** The project file a relative specifier names (a .ts file or a folder's index.ts); null for a package. */
function resolveSource(spec: string, file: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(file), spec);
  for (const c of [base, `${base}.ts`, join(base, 'index.ts')]) if (existsSync(c) && statSync(c).isFile()) return c;
  return null;
}

/** Every project file `file` reaches through its imports, transitively. */
function reachable(file: string): Set<string> {
  const seen = new Set<string>();
  const stack = [file];
  while (stack.length) {
    const f = stack.pop()!;
    for (const spec of importsOf(readFileSync(f, 'utf8'))) {
      const t = resolveSource(spec, f);
      if (t && !seen.has(t)) {
        seen.add(t);
        stack.push(t);
      }
    }
  }
  return seen;
}

describe('architecture: which folder may import what', () => {
  it('the import scanner finds static, type, dynamic, require and re-export imports', () => {
    const found = importsOf(`import a from 'x1'; import type { B } from "x2"; import 'x3';
      const c = await import('x4'); const d = require('x5'); export { e } from './x6';
      // import f from 'commented'`);
    expect(found.sort()).toEqual(['./x6', 'x1', 'x2', 'x3', 'x4', 'x5']);
  });

  it('shared/ imports nothing from three, electron, Node built-ins or outside shared/', () => {
    const v = violations('shared', (spec, file) => {
      if (isThree(spec)) return 'three.js belongs to the renderer';
      if (isElectron(spec)) return 'electron belongs to main/preload';
      if (isNodeBuiltin(spec)) return 'Node built-ins belong to main/';
      if (spec.startsWith('.') && !resolvesInto(spec, file, 'shared')) return 'shared/ may only import shared/';
      return null;
    });
    expect(v).toEqual([]);
  });

  it('shared/ uses no DOM or Node globals (type-checked against ES2022 + shared/platform.d.ts only)', () => {
    let output = '';
    try {
      execFileSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', join(ROOT, 'tsconfig.shared.json')], { encoding: 'utf8' });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(output).toBe('');
  }, 120_000);

  it('renderer/ imports no Node built-ins or electron, and nothing from main/ or preload/', () => {
    const v = violations('renderer', (spec, file) => {
      if (isElectron(spec)) return 'the renderer talks to Electron only through window.studio';
      if (isNodeBuiltin(spec)) return 'the renderer runs in a sandboxed page';
      if (resolvesInto(spec, file, 'main') || resolvesInto(spec, file, 'preload')) return 'use the StudioApi contract';
      return null;
    });
    expect(v).toEqual([]);
  });

  it('preload/ imports only electron and the contract types in shared/contract', () => {
    const v = violations('preload', (spec, file) => {
      if (isElectron(spec)) return null;
      if (resolvesInto(spec, file, 'shared/contract') || resolvesInto(spec, file, 'preload')) return null;
      return 'the preload may import only electron and shared/contract';
    });
    expect(v).toEqual([]);
  });

  it('main/services, main/cli and main/host import no electron (only main/electron does)', () => {
    for (const dir of ['main/services', 'main/cli', 'main/host']) {
      const v = violations(dir, (spec) => (isElectron(spec) ? 'Electron belongs to main/electron; these run without it' : null));
      expect(v).toEqual([]);
    }
    // The rule bites: main/electron really is where electron is imported.
    expect(violations('main/electron', (spec) => (isElectron(spec) ? 'electron' : null)).length).toBeGreaterThan(0);
  });

  it('main/ imports nothing from renderer/ or preload/', () => {
    const v = violations('main', (spec, file) => {
      if (resolvesInto(spec, file, 'renderer')) return 'main/ must not depend on the page';
      if (resolvesInto(spec, file, 'preload')) return 'main/ must not depend on the preload bridge';
      return null;
    });
    expect(v).toEqual([]);
  });

  it('the format table dispatches to the exporters, which never reach back to it (no cycle)', () => {
    const codecs = join(ROOT, 'shared/formats/codecs.ts');
    const exportFiles = sourceFiles('shared/export');
    // The table plugs the exporters in: codecs.ts reaches every writer of shared/export.
    const fromCodecs = reachable(codecs);
    for (const w of ['vmdWriter', 'bvhWriter', 'glbWriter', 'fbxWriter']) expect(fromCodecs.has(join(ROOT, 'shared/export', `${w}.ts`)), w).toBe(true);
    // And no exporter module reaches the table (nor the convert door that imports it).
    const back = exportFiles.flatMap((f) =>
      [...reachable(f)].filter((t) => t === codecs || t === join(ROOT, 'shared/formats/index.ts')).map((t) => `${relative(ROOT, f)} reaches ${relative(ROOT, t)}`)
    );
    expect(back).toEqual([]);
    expect(fromCodecs.has(codecs), 'codecs.ts is not on a cycle of its own').toBe(false);
  });
  it('tests/ and bench/ meet only in testkit/, which imports neither', () => {
    const kitRule = (from: string, banned: string[]) => (spec: string, file: string) => {
      const hit = banned.find((b) => resolvesInto(spec, file, b));
      return hit ? `${from} may share code with ${hit}/ only through testkit/` : null;
    };
    expect(violations('tests', kitRule('tests/', ['bench']))).toEqual([]);
    expect(violations('bench', kitRule('bench/', ['tests']))).toEqual([]);
    expect(violations('testkit', kitRule('testkit/', ['tests', 'bench']))).toEqual([]);
    // The rule bites: a bench module that imported a test's folder, as bench did before the kit, is named.
    const before = kitRule('bench/', ['tests'])('../tests/helpers/browser', join(ROOT, 'bench/studio.bench.ts'));
    expect(before).toBe('bench/ may share code with tests/ only through testkit/');
    // And both really use the kit.
    expect(violations('bench', (spec, file) => (resolvesInto(spec, file, 'testkit') ? 'kit' : null)).length).toBeGreaterThan(0);
    expect(violations('tests', (spec, file) => (resolvesInto(spec, file, 'testkit') ? 'kit' : null)).length).toBeGreaterThan(0);
  });
});
