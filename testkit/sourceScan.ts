/**
 * The repository's own TypeScript sources, for tests that check every site of a pattern by AST
 * (tests/unit/i18n/errorDetails.test.ts: throw sites; warningDetails.test.ts: warning sites).
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(__dirname, '..');

/** A catalogue detail key: lower camel words joined by dots ("bvh.truncated", "budget"); messages always have spaces. */
export const DETAIL_KEY = /^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)*$/;

/** The .ts files below `dir` (not .d.ts), leaving out the i18n folder (the catalogue itself). */
export function tsSourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'i18n') out.push(...tsSourceFiles(p));
    } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
