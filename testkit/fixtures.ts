/**
 * Real-data fixtures live beside the repository in ../shared/fixtures (never copied in). A clone
 * without them still passes: tests that need them are skipped with this reason.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { describe, it } from 'vitest';

export const FIXTURES_DIR = resolve(__dirname, '..', '..', 'shared', 'fixtures');
export const HAS_FIXTURES = existsSync(join(FIXTURES_DIR, 'README.md'));
export const NO_FIXTURES_REASON = `real-data fixtures not found at ${FIXTURES_DIR} (they sit beside the repository, see README)`;

type SuiteBody = () => void;

/**
 * Without the fixtures, a suite's body is not even collected (bodies read fixture files while
 * collecting); one skipped placeholder carries the reason into the report instead.
 */
function skippedForFixtures(name: string): void {
  describe.skip(`${name} [skipped: ${NO_FIXTURES_REASON}]`, () => {
    it('needs the real-data fixtures', () => undefined);
  });
}

/** describe() for suites that read the real-data fixtures: skipped with the reason when they are absent. */
export const describeFixtures = Object.assign(
  (name: string, fn: SuiteBody, timeout?: number): void => {
    if (HAS_FIXTURES) describe(name, fn, timeout);
    else skippedForFixtures(name);
  },
  {
    /** Also skip when `condition` holds (e.g. no Chromium), with `reason` in the title; the fixtures' absence wins the reason. */
    skipIf: (condition: boolean, reason: string) => (name: string, fn: SuiteBody, timeout?: number): void => {
      if (HAS_FIXTURES) describe.skipIf(condition)(condition ? `${name} [skipped: ${reason}]` : name, fn, timeout);
      else skippedForFixtures(name);
    },
  },
);

export function fixturePath(...parts: string[]): string {
  return join(FIXTURES_DIR, ...parts);
}

export function readFixture(...parts: string[]): Uint8Array {
  return new Uint8Array(readFileSync(fixturePath(...parts)));
}

/** Fixture files of one folder with a given extension, e.g. fixtureFiles('vrma', '.vrma'). */
export function fixtureFiles(folder: string, ext: string): string[] {
  if (!HAS_FIXTURES) return [];
  const dir = join(FIXTURES_DIR, folder);
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.toLowerCase().endsWith(ext)) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}
