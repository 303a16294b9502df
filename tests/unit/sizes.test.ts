/**
 * Small files named after one concept, short functions: no source file over 400 lines except message
 * catalogues and data tables, no function over 120 lines. What the code still owes is listed, each with
 * its length today; the test fails on a new long file or function, on one that grew, and on one that was
 * shortened without being taken off the list, so the list only shrinks.
 */
import { describe, expect, it } from 'vitest';
import { longFiles, longFunctions, type LongThing } from '../../testkit/sizeScan';

const DIRS = ['shared', 'main', 'renderer', 'preload'];
const MAX_FILE = 400;
const MAX_FUNCTION = 120;

/** Message catalogues, and the tables that are the one place a concept's cases live. */
const DATA_TABLES = (path: string) => path.startsWith('shared/i18n/messages/') || path === 'shared/edits/registry.ts';

const FILE_DEBT: Readonly<Record<string, number>> = {};

const FUNCTION_DEBT: Readonly<Record<string, number>> = {};

/** Each listed item at most its listed length; nothing unlisted; nothing listed that is short now. */
function owed(found: readonly LongThing[], debt: Readonly<Record<string, number>>): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const f of found) {
    seen.add(f.where);
    const allowed = debt[f.where];
    if (allowed === undefined) problems.push(`${f.where}: ${f.lines} lines (new)`);
    else if (f.lines > allowed) problems.push(`${f.where}: ${f.lines} lines (grew from ${allowed})`);
  }
  for (const where of Object.keys(debt)) if (!seen.has(where)) problems.push(`${where}: short enough now, take it off the list`);
  return problems;
}

describe('sizes: files under 400 lines, functions under 120', () => {
  it('the rule bites: a made-up long file and function are found', () => {
    expect(owed([{ where: 'x.ts', lines: 401 }], {})).toEqual(['x.ts: 401 lines (new)']);
    expect(owed([{ where: 'x.ts:f', lines: 130 }], { 'x.ts:f': 125 })).toEqual(['x.ts:f: 130 lines (grew from 125)']);
    expect(owed([], { 'x.ts': 500 })).toEqual(['x.ts: short enough now, take it off the list']);
  });

  it(`no file over ${MAX_FILE} lines beyond the listed debt`, () => {
    expect(owed(longFiles(DIRS, MAX_FILE, DATA_TABLES), FILE_DEBT)).toEqual([]);
  });

  it(`no function over ${MAX_FUNCTION} lines beyond the listed debt`, () => {
    expect(owed(longFunctions(DIRS, MAX_FUNCTION), FUNCTION_DEBT)).toEqual([]);
  });
});
