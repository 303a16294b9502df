/**
 * The linter and the text format run with the tests (issue 22, item 10).
 *
 * The linter is Biome (biome.json: its recommended rules, minus the few that fight idioms the code uses
 * on purpose, each named there). The code formatter is dprint's, checked in format.test.ts: Biome's and
 * Prettier's formatters both split the one-line multi-declarations the math code is written in
 * (`const x = a[o], y = a[o + 1]`) and changed 1.7 times the lines dprint does. Every tracked text file,
 * the Markdown, JSON, CSS, HTML, Python and shell ones no formatter reaches included, is checked here:
 * LF line ends, no tabs, no trailing spaces, one final newline.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '..', '..');
const BIOME = join(ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome');

interface Diagnostic {
  readonly category: string;
  readonly location: { readonly path: string; readonly start?: { readonly line: number } };
}

function lint(cwd: string, args: string[]): Diagnostic[] {
  const r = spawnSync(process.execPath, [BIOME, 'lint', '--reporter=json', '--max-diagnostics=none', ...args], { cwd, encoding: 'utf8', maxBuffer: 64 << 20 });
  // Biome exits 1 when it finds something; its JSON report is on stdout either way.
  const report = JSON.parse(r.stdout) as { diagnostics: Diagnostic[] };
  return report.diagnostics.filter((d) => d.category.startsWith('lint/'));
}

const where = (d: Diagnostic) => `${d.location.path}:${d.location.start?.line ?? '?'} ${d.category}`;

describe('lint', () => {
  it('Biome finds nothing in the sources, tests and benches', () => {
    expect(lint(ROOT, ['.']).map(where)).toEqual([]);
  });

  it('the configuration catches what it is there for (files with known faults, linted with biome.json)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lint-probe-'));
    try {
      copyFileSync(join(ROOT, 'biome.json'), join(dir, 'biome.json'));
      mkdirSync(join(dir, 'shared'));
      mkdirSync(join(dir, 'tests', 'unit'), { recursive: true });
      // A NaN test by self-comparison and an implicit-any let (assigned once) in the core; a focused test in the tests.
      writeFileSync(join(dir, 'shared', 'probe.ts'), 'export function f(x: number) {\n  let y;\n  y = x;\n  return x !== x || y;\n}\n');
      writeFileSync(join(dir, 'tests', 'unit', 'probe.test.ts'), "import { it } from 'vitest';\nit.only('x', () => {});\n");
      expect(lint(dir, ['.']).map(where).sort()).toEqual([
        'shared/probe.ts:2 lint/style/useConst',
        'shared/probe.ts:2 lint/suspicious/noImplicitAnyLet',
        'shared/probe.ts:4 lint/suspicious/noSelfCompare',
        'tests/unit/probe.test.ts:2 lint/suspicious/noFocusedTests',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('text format', () => {
  const files = execFileSync('git', ['ls-files', '*.ts', '*.cjs', '*.mjs', '*.css', '*.html', '*.json', '*.md', '*.py', '*.sh'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && f !== 'package-lock.json');

  /** What is wrong with one file's text, as "path:line what". */
  function problems(path: string, text: string): string[] {
    const out: string[] = [];
    if (text.length && !text.endsWith('\n')) out.push(`${path}: no final newline`);
    if (text.endsWith('\n\n')) out.push(`${path}: blank lines at the end`);
    const lines = text.split('\n');
    lines.forEach((line, i) => {
      if (line.endsWith('\r')) out.push(`${path}:${i + 1} CRLF`);
      if (/^\t| \t|\t /.test(line) || (/\t/.test(line) && !path.endsWith('.md'))) out.push(`${path}:${i + 1} tab`);
      if (/[ \t]+\r?$/.test(line) && !path.endsWith('.md')) out.push(`${path}:${i + 1} trailing space`);
    });
    return out;
  }

  it('every tracked text file: LF, no tabs, no trailing spaces, one final newline', () => {
    expect(files.length).toBeGreaterThan(500);
    expect(files.flatMap((f) => problems(f, readFileSync(join(ROOT, f), 'utf8')))).toEqual([]);
  });

  it('the check sees each fault', () => {
    expect(problems('x.ts', 'a \r\n\tb\nc')).toEqual(['x.ts: no final newline', 'x.ts:1 CRLF', 'x.ts:1 trailing space', 'x.ts:2 tab']);
    expect(problems('x.ts', 'a\n\n')).toEqual(['x.ts: blank lines at the end']);
    expect(problems('x.ts', 'const a = 1;\n')).toEqual([]);
  });
});
