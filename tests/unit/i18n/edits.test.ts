/**
 * Every edit of the registry (shared/edits/registry.ts) is translated: label, help, each parameter's
 * label and help (and limit, when it has one), every reason an edit may not apply. A new edit or
 * parameter without keys fails here, not silently in English on a Japanese screen.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EDITS, UNAVAILABLE_REASONS } from '../../../shared/edits/registry';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { setLocale } from '../../../shared/i18n';
import { panelFields, disabledReason, initialState } from '../../../renderer/panels/editCatalog';
import { editLabel } from '../../../renderer/panels/editText';

afterEach(() => setLocale('en'));

function expectedKeys(): string[] {
  const keys: string[] = [];
  for (const def of EDITS) {
    keys.push(`edit.${def.id}.label`, `edit.${def.id}.help`);
    for (const p of def.params) {
      keys.push(`edit.${def.id}.param.${p.name}`, `edit.${def.id}.param.${p.name}.help`);
      if (p.kind === 'number' && p.limit) keys.push(`edit.${def.id}.param.${p.name}.limit`);
    }
  }
  for (const code of Object.keys(UNAVAILABLE_REASONS)) keys.push(`edit.reason.${code}`);
  return keys;
}

describe('edit registry translations', () => {
  it('the registry has edits to translate', () => {
    expect(EDITS.length).toBeGreaterThanOrEqual(13);
  });

  it('every edit, parameter and reason has its keys in en and ja', () => {
    const missing = expectedKeys().filter((k) => !(k in CATALOGUE.en) || !(k in CATALOGUE.ja));
    expect(missing).toEqual([]);
  });

  it('no edit key is left over from an edit or parameter the registry no longer has', () => {
    const expected = new Set(expectedKeys());
    const stale = Object.keys(CATALOGUE.en).filter((k) => k.startsWith('edit.') && !expected.has(k));
    expect(stale).toEqual([]);
  });

  it('English labels and parameter help are the registry’s (one wording for CLI and studio)', () => {
    for (const def of EDITS) {
      expect(CATALOGUE.en[`edit.${def.id}.label`]).toBe(def.label);
      for (const p of def.params) {
        expect(CATALOGUE.en[`edit.${def.id}.param.${p.name}`]).toBe(p.label);
        expect(CATALOGUE.en[`edit.${def.id}.param.${p.name}.help`]).toBe(p.help);
      }
    }
  });

  it('the panel shows the Japanese when the locale is ja', () => {
    const mirror = EDITS.find((d) => d.id === 'mirror')!;
    const del = EDITS.find((d) => d.id === 'delete')!;
    setLocale('ja');
    expect(editLabel(mirror)).toBe('左右反転');
    expect(editLabel(del)).toBe('範囲を削除');
    const blend = panelFields(del).find((f) => f.kind === 'number')!;
    expect(blend.label).toBe('ブレンド（s）');
    expect(blend.title).toMatch(/^つなぎ目のクロスフェードの長さ: 0 s 以上; 削除する範囲の前後の長さまでに短縮されます（既定値 0\.2 s）$/);
    const ctx = { motion: { channels: [], warnings: [] } as never, duration: 1, range: null, time: 0 };
    expect(disabledReason(EDITS.find((d) => d.id === 'keep')!, ctx, initialState(del))).toBe(
      '先にタイムラインで IN 点と OUT 点を設定してください（I キーと O キー）',
    );
  });
});
