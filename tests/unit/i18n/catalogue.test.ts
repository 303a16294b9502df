/**
 * The catalogue is complete in both languages: every key in en exists in ja and the other way round,
 * no message is empty, both parse, and en and ja use the same parameters (a {file} missing in ja
 * would silently drop the file name from an error). Keys are unique across area files.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { AREAS, CATALOGUE } from '../../../shared/i18n/catalogue';
import { parseMessage, placeholdersOf } from '../../../shared/i18n/format';
import type { AreaMessages } from '../../../shared/i18n/messages/define';

const areas = Object.entries(AREAS) as [string, AreaMessages][];

/** Problems of one area (exported shape so the test of the test can feed it a broken area). */
function areaProblems(name: string, area: AreaMessages): string[] {
  const problems: string[] = [];
  const en = Object.keys(area.en);
  const ja = Object.keys(area.ja);
  for (const k of en) if (!(k in area.ja)) problems.push(`${name}: "${k}" has no Japanese message`);
  for (const k of ja) if (!(k in area.en)) problems.push(`${name}: "${k}" has no English message`);
  for (const k of en) {
    if (!(k in area.ja)) continue;
    for (const lang of ['en', 'ja'] as const) {
      const m = area[lang][k];
      if (typeof m !== 'string' || m.trim() === '') problems.push(`${name}: "${k}" is empty in ${lang}`);
      try {
        parseMessage(m);
      } catch (e) {
        problems.push(`${name}: "${k}" (${lang}) does not parse: ${(e as Error).message}`);
      }
    }
    try {
      const pe = placeholdersOf(area.en[k]).join(',');
      const pj = placeholdersOf(area.ja[k]).join(',');
      if (pe !== pj) problems.push(`${name}: "${k}" uses {${pe}} in en but {${pj}} in ja`);
    } catch {
      /* reported above */
    }
  }
  return problems;
}

describe('i18n catalogue', () => {
  it('has the areas it is built from, with real content', () => {
    expect(areas.length).toBeGreaterThanOrEqual(5);
    expect(Object.keys(CATALOGUE.en).length).toBeGreaterThan(150);
  });

  it('every area file in shared/i18n/messages is listed in the catalogue', () => {
    const files = readdirSync(join(__dirname, '../../../shared/i18n/messages'))
      .filter((f) => f.endsWith('.ts') && f !== 'define.ts')
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(Object.keys(AREAS).sort()).toEqual(files);
  });

  it('every key exists in en and ja, is not empty, parses, and has the same placeholders', () => {
    const problems = areas.flatMap(([name, area]) => areaProblems(name, area));
    expect(problems).toEqual([]);
  });

  it('the checker itself catches a missing key, an extra key and a placeholder mismatch', () => {
    const broken = {
      en: { 'x.a': 'Open {file}', 'x.b': 'Two', 'x.c': '{count, plural, one {# key} other {# keys}}' },
      ja: { 'x.a': '開く', 'x.c': '{n, plural, other {# キー}}', 'x.d': '余分' },
    } as unknown as AreaMessages;
    expect(areaProblems('x', broken).sort()).toEqual(
      [
        'x: "x.a" uses {file} in en but {} in ja',
        'x: "x.b" has no Japanese message',
        'x: "x.c" uses {count} in en but {n} in ja',
        'x: "x.d" has no English message',
      ].sort(),
    );
  });

  it('no key is defined by two areas', () => {
    const seen = new Map<string, string>();
    const dup: string[] = [];
    for (const [name, area] of areas) {
      for (const k of Object.keys(area.en)) {
        const other = seen.get(k);
        if (other) dup.push(`${k} in ${other} and ${name}`);
        seen.set(k, name);
      }
    }
    expect(dup).toEqual([]);
  });

  it('Japanese messages are Japanese: most contain kana or kanji', () => {
    const jp = /[\u3040-\u30ff\u4e00-\u9fff]/;
    const all = Object.entries(CATALOGUE.ja);
    const japanese = all.filter(([, m]) => jp.test(m)).length;
    // Some messages are legitimately the same in both (file names, "{fps} fps", "VRMA Studio", "OK").
    expect(japanese / all.length).toBeGreaterThan(0.85);
    const same = all.filter(([k, m]) => m === CATALOGUE.en[k] && /[a-z]{4,}/i.test(m.replace(/\{[^}]*\}|VRMA Studio|English|\.vrma/g, '')));
    expect(same.map(([k]) => k)).toEqual([]);
  });
});
