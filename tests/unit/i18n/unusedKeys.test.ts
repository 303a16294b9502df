/**
 * No message of the catalogue without a reader: every key is named by the product's sources, either
 * whole ('studio.doc.saved') or as a family built at run time (`command.${id}.label`, `error.${code}`)
 * whose varying part the sources name as a literal ('file.open', 'NOT_GLB'). A dead key (a text
 * nothing shows any more, which drifts unseen, as the old Convert Folder lists of formats did) fails here.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { REPO_ROOT, tsSourceFiles } from '../../../testkit/sourceScan';

/** Keys only the tests read, with the reason they stay. */
const KEPT: Readonly<Record<string, string>> = {
  'library.openEntry': 'the Japanese word-order example of tests/unit/i18n/format.test.ts',
};

function productSources(): string {
  const i18n = join(REPO_ROOT, 'shared', 'i18n');
  const files = [
    ...['renderer', 'main', 'shared', 'preload'].flatMap((d) => tsSourceFiles(join(REPO_ROOT, d))),
    // The catalogue's own code (translate, glossary, locale), not its messages.
    ...readdirSync(i18n).filter((n) => n.endsWith('.ts')).map((n) => join(i18n, n)),
  ];
  return files.map((f) => readFileSync(f, 'utf8')).join('\n');
}

/** Keys the product names as a literal first argument of t(), translate() or hasMessage(), with where. */
function keysNamed(): { key: string; where: string }[] {
  const out: { key: string; where: string }[] = [];
  for (const file of ['renderer', 'main', 'shared', 'preload'].flatMap((d) => tsSourceFiles(join(REPO_ROOT, d)))) {
    const src = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ['t', 'translate', 'hasMessage'].includes(node.expression.text)) {
        const first = node.arguments[0];
        if (first && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first))) {
          out.push({ key: first.text, where: `${relative(REPO_ROOT, file)}:${src.getLineAndCharacterOfPosition(node.getStart()).line + 1}` });
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(src);
  }
  return out;
}

/** The key families the sources build at run time: the literal text before `${` in a template. */
function families(text: string): string[] {
  return [...new Set([...text.matchAll(/`([a-z][A-Za-z]*(?:\.[A-Za-z-]+)*\.)\$\{/g)].map((m) => m[1]))];
}

/** Whether a key is read: named whole, or a family member whose varying part is a literal of the sources. */
function isRead(key: string, text: string, prefixes: readonly string[]): boolean {
  const named = (s: string) => text.includes(`'${s}'`) || text.includes(`"${s}"`) || text.includes(`\`${s}\``);
  if (named(key)) return true;
  return prefixes.some((p) => {
    if (!key.startsWith(p)) return false;
    // The varying part may be followed by fixed segments (`command.${id}.label`): try each cut.
    const rest = key.slice(p.length).split('.');
    return rest.some((_, i) => named(rest.slice(0, rest.length - i).join('.')));
  });
}

describe('the catalogue has no unused keys', () => {
  const text = productSources();
  const prefixes = families(text);

  it('finds the run-time families and tells a dead key from a used one', () => {
    expect(prefixes).toEqual(expect.arrayContaining(['command.', 'error.', 'errorDetail.', 'warning.', 'fileError.', 'edit.']));
    expect(isRead('command.file.open.label', text, prefixes)).toBe(true);
    expect(isRead('error.NOT_GLB', text, prefixes)).toBe(true);
    expect(isRead('studio.no.such.message', text, prefixes)).toBe(false);
    expect(isRead('command.no-such-command.label', text, prefixes)).toBe(false);
  });

  it('every key of the catalogue is read by the product (or kept for a named test)', () => {
    const unused = Object.keys(CATALOGUE.en).filter((k) => !isRead(k, text, prefixes) && !(k in KEPT));
    expect(unused).toEqual([]);
  });

  it('every key named in t(), translate() or hasMessage() exists in English and Japanese', () => {
    const named = keysNamed();
    // t() is typed, translate() and hasMessage() take any string: a typo there would show the key itself.
    expect(named.length).toBeGreaterThan(300);
    expect(named.some((n) => n.key === 'studio.report.open' && n.where.startsWith(join('renderer', 'ui', 'messages.ts')))).toBe(true);
    const missing = named.flatMap(({ key, where }) => (['en', 'ja'] as const).filter((l) => !(key in CATALOGUE[l])).map((l) => `${where}: ${key} (${l})`));
    expect(missing).toEqual([]);
  });

  it('the kept keys exist and no product code reads them (else they need no exception)', () => {
    for (const k of Object.keys(KEPT)) {
      expect(CATALOGUE.en[k], k).toBeDefined();
      expect(isRead(k, text, prefixes), k).toBe(false);
    }
  });
});
