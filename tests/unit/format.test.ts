/**
 * The code formatter runs with the tests (issue 22, item 10): dprint's TypeScript plugin, from its npm
 * package (scripts/format.cjs, options in dprint.json, files as biome.json's includes). `npm run format`
 * writes what this test asks for.
 */
import { createRequire } from 'node:module';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');

interface Formatter {
  format(file: string, text: string): string;
}
interface FormatModule {
  createFormatter(root?: string): Formatter;
  sourceFiles(root?: string): string[];
  unformatted(root?: string, files?: readonly string[], formatter?: Formatter): { file: string; formatted: string }[];
}
const { createFormatter, sourceFiles, unformatted } = createRequire(__filename)(join(ROOT, 'scripts', 'format.cjs')) as FormatModule;
const formatter = createFormatter(ROOT);
const fmt = (text: string) => formatter.format('probe.ts', text);

describe('format', () => {
  it('every source file is as the formatter writes it (npm run format fixes the ones named)', () => {
    const files = sourceFiles(ROOT);
    // The same tree the linter sees: the core, the processes, the tests, the benches and the scripts.
    expect(files.length).toBeGreaterThan(800);
    for (const dir of ['shared/', 'main/', 'renderer/', 'preload/', 'tests/', 'bench/', 'testkit/', 'scripts/', 'bin/']) expect(files.some((f) => f.startsWith(dir))).toBe(true);
    expect(unformatted(ROOT, files, formatter).map((u) => u.file)).toEqual([]);
  });

  it('the check sees a mis-formatted file, and names only it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'format-probe-'));
    try {
      copyFileSync(join(ROOT, 'dprint.json'), join(dir, 'dprint.json'));
      mkdirSync(join(dir, 'shared'));
      writeFileSync(join(dir, 'shared', 'bad.ts'), 'export const  x=[1,2 ,3]\n');
      writeFileSync(join(dir, 'shared', 'good.ts'), 'export const x = [1, 2, 3];\n');
      const found = unformatted(dir, ['shared/bad.ts', 'shared/good.ts'], createFormatter(dir));
      expect(found).toEqual([{ file: 'shared/bad.ts', formatted: 'export const x = [1, 2, 3];\n' }]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the options do what they were chosen for', () => {
    // The math's packed declarations stay on one line; spacing, quotes and semicolons are made the house's.
    expect(fmt('const ax = a[o], ay = a[o + 1], az = a[o + 2];\n')).toBe('const ax = a[o], ay = a[o + 1], az = a[o + 2];\n');
    expect(fmt('const s = "it"\n')).toBe("const s = 'it';\n");
    expect(fmt('const s = "it\'s";\n')).toBe('const s = "it\'s";\n');
    // Imports keep their order and the writer's line breaks; a single-statement if keeps its missing braces.
    expect(fmt("import { b, a } from './x';\nimport {\n  c,\n  d,\n} from './y';\n")).toBe("import { b, a } from './x';\nimport {\n  c,\n  d,\n} from './y';\n");
    expect(fmt('if (x) return 1;\nelse y();\n')).toBe('if (x) return 1;\nelse y();\n');
    // Past 200 columns a call is broken, one argument a line.
    const long = `f(${Array.from({ length: 30 }, (_, i) => `argument${i}`).join(', ')});\n`;
    expect(fmt(long).split('\n').length).toBe(33);
  });

  it('formatting twice changes nothing (the formatter is taken to its fixed point)', () => {
    const once = fmt('function g( a:number ){ if(a) { return a } ; const  b={x:1,y:2}; return b.x+a }\n');
    expect(once).toBe('function g(a: number) {\n  if (a) { return a; }\n  const b = { x: 1, y: 2 };\n  return b.x + a;\n}\n');
    expect(fmt(once)).toBe(once);
    // dprint's one pass leaves this condition half broken (`every((k) =>` then its body on the next line) and
    // joins it on the next pass (shared/vrma/compactRig.ts had it); the fixed point is the joined form.
    const cond = "if (g.s !== undefined && !(Array.isArray(g.s) && g.s.every((s) => isObject(s) && Object.keys(s).every((k) => k === 'nodes' || k === 'name')"
      + ' && (s.nodes === undefined || (Array.isArray(s.nodes) && s.nodes.every((i) => Number.isInteger(i) && i >= 0)))))) return m;\n';
    const settled = fmt(cond);
    expect(settled).toContain("    isObject(s) && Object.keys(s).every((k) => k === 'nodes' || k === 'name') &&\n");
    expect(fmt(settled)).toBe(settled);
  });

  it('a file that does not parse is an error naming it, not a silent pass', () => {
    expect(() => formatter.format('shared/broken.ts', 'const a = ;\n')).toThrow(/broken\.ts/);
  });
});
