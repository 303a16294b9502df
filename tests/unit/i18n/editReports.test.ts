/**
 * Every edit reports its own figures in both languages (issue 12): each registry edit is run on a real
 * motion (fixtures/vrma/idle_loop.vrma; join appends test.vrma; fit uses the debug_robot avatar) and
 * the studio's report line (renderer/panels/editText.ts, from the registry's structured figures) is
 * worded in English and Japanese. Both must show the same numbers, the Japanese no English outside
 * the e2e allow-list, and the figures must be the edit's real results (keys counted, durations read).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EDITS, runEdit, type EditInput } from '../../../shared/edits/registry';
import { keyCount } from '../../../shared/edits/editReport';
import { readVrma } from '../../../shared/vrma/read';
import { readAvatarSkeleton } from '../../../shared/avatar/avatarSkeleton';
import { durationOf } from '../../../shared/motion/types';
import { setLocale, type Locale } from '../../../shared/i18n';
import { initialState } from '../../../renderer/panels/editCatalog';
import { editReportText, withParamLabels } from '../../../renderer/panels/editText';
import { errorText } from '../../../renderer/ui/messages';
import { editConfirmation } from '../../../renderer/app/editConfirmation';
import { describeFixtures, FIXTURES_DIR } from '../../../testkit/fixtures';
import { englishWords, JAPANESE } from '../../../testkit/japaneseText';

afterEach(() => setLocale('en'));

/** Edits that change no quantity the user would count: they confirm in words ("Mirrored" / "左右反転しました"). */
const WORDS_ONLY = new Set(['reverse', 'mirror']);

/** The numbers of a shown line, as written (grouping removed), sorted: the two languages order them differently. */
const numbersOf = (text: string) => (text.match(/\d[\d,]*(\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, '')).sort();

describeFixtures('edit reports in Japanese and English', () => {
  const fixture = (p: string) => new Uint8Array(readFileSync(join(FIXTURES_DIR, p)));
  const motion = readVrma(fixture('vrma/idle_loop.vrma'));
  const other = readVrma(fixture('vrma/test.vrma'));
  const avatar = readAvatarSkeleton(fixture('vrm1/debug_robot.vrm'), 'debug_robot.vrm');
  const d = durationOf(motion);

  const shown = (def: (typeof EDITS)[number], input: EditInput, values: Record<string, number | boolean>, locale: Locale) => {
    const out = runEdit(def, input, values);
    setLocale(locale);
    const range = input.range ? { start: input.range.from, end: input.range.to } : null;
    const text = out.figures.length ? editReportText(def, out.figures) : editConfirmation(def.id, values, range, motion, out.motion);
    setLocale('en');
    return { out, text };
  };

  it('runs on a real motion of several seconds', () => {
    expect(d).toBeGreaterThan(1);
    expect(EDITS.length).toBeGreaterThanOrEqual(16);
  });

  for (const def of EDITS) {
    it(`${def.id}: the same figures in en and ja, no untranslated text`, () => {
      const values: Record<string, number | boolean> = { ...initialState(def).values };
      // Booleans on, so strip and pin have something to do (and optimize/join run their options).
      for (const p of def.params) if (p.kind === 'boolean') values[p.name] = true;
      const input: EditInput = {
        motion,
        range: def.range ? { from: Math.fround(d * 0.25), to: Math.fround(d * 0.5) } : undefined,
        other: def.other ? other : undefined,
        time: def.time ? d / 2 : undefined,
        avatar: def.avatar ? avatar : undefined,
      };
      const en = shown(def, input, values, 'en');
      const ja = shown(def, input, values, 'ja');
      if (!WORDS_ONLY.has(def.id)) expect(en.out.figures.length, `${def.id} reports no figures`).toBeGreaterThan(0);
      expect(numbersOf(ja.text), `${en.text} / ${ja.text}`).toEqual(numbersOf(en.text));
      expect(englishWords(ja.text), ja.text).toEqual([]);
      expect(JAPANESE.test(ja.text), ja.text).toBe(true);
      expect(JAPANESE.test(en.text), en.text).toBe(false);
      expect(ja.text).not.toBe(en.text);
      if (process.env.SHOW_REPORTS) console.log(`${en.text}\n${ja.text}`);
    });
  }

  it('the figures are the edit’s real results: optimize counts the keys, speed and delete the durations', () => {
    const optimize = EDITS.find((e) => e.id === 'optimize')!;
    const o = shown(optimize, { motion }, { ...initialState(optimize).values }, 'ja');
    const fmt = new Intl.NumberFormat('ja');
    expect(o.text).toContain(`キー ${fmt.format(keyCount(motion))} → ${fmt.format(keyCount(o.out.motion))}`);
    expect(keyCount(o.out.motion)).toBeLessThan(keyCount(motion));
    expect(o.text).toMatch(/最大誤差 [\d.]+ rad、[\d.]+ mm/);

    const speed = EDITS.find((e) => e.id === 'speed')!;
    const s = shown(speed, { motion }, { factor: 2 }, 'ja');
    const two = (x: number) => new Intl.NumberFormat('ja', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(x);
    expect(s.text).toBe(`速度変更: 速度 ×2、長さ ${two(d)} s → ${two(durationOf(s.out.motion))} s`);
    expect(durationOf(s.out.motion)).toBeCloseTo(d / 2, 4);

    const del = EDITS.find((e) => e.id === 'delete')!;
    const cut = shown(del, { motion, range: { from: 0.5, to: 1 } }, { blend: 0.2 }, 'en');
    expect(cut.text).toBe(`Delete range: removed 0.50 s + 0.20 s crossfade, duration ${two(d)} s → ${two(durationOf(cut.out.motion))} s`);
    expect(durationOf(cut.out.motion)).toBeCloseTo(d - 0.7, 3);
  });

  it('a refused parameter names the field as the panel labels it, with the real values', () => {
    const smooth = EDITS.find((e) => e.id === 'smooth')!;
    let error: unknown;
    try {
      runEdit(smooth, { motion }, { sigma: 2 });
    } catch (e) {
      error = e;
    }
    setLocale('ja');
    const ja = errorText(withParamLabels(smooth, error));
    expect(ja).toMatch(/^値が範囲外です（シグマ は 0 s から [\d.]+ s の間にしてください（指定値 2 s））$/);
    expect(englishWords(ja)).toEqual([]);
    setLocale('en');
    expect(errorText(withParamLabels(smooth, error))).toMatch(/^A value is out of range \(Sigma must be between 0 s and [\d.]+ s, got 2 s\)$/);
  });
});
