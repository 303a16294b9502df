/**
 * No message of the catalogue without a reader: every key is named by the product's sources, either
 * whole ('studio.doc.saved') or as a family built at run time (`command.${id}.label`, `error.${code}`)
 * whose varying part the sources name as a literal ('file.open', 'NOT_GLB'). A dead key (a text
 * nothing shows any more, which drifts unseen, as the old Convert Folder lists of formats did) fails here.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { REPO_ROOT, tsSourceFiles } from '../../helpers/sourceScan';

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

  it('the kept keys exist and no product code reads them (else they need no exception)', () => {
    for (const k of Object.keys(KEPT)) {
      expect(CATALOGUE.en[k], k).toBeDefined();
      expect(isRead(k, text, prefixes), k).toBe(false);
    }
  });
});
