/**
 * The Japanese follows the glossary: every English message that uses a checked term has the
 * glossary's Japanese term in its Japanese message (consistency the reviewer would otherwise check by eye).
 */
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../../shared/i18n/catalogue';
import { GLOSSARY } from '../../../shared/i18n/glossary';

describe('glossary', () => {
  it('has the MMD/VRoid vocabulary the issue names', () => {
    const ja = new Set(GLOSSARY.map((g) => g.ja));
    for (const term of ['モーション', 'ポーズ', '書き出し', '範囲を削除', '左右反転', 'キーの間引き', '寝返り', '寝姿']) expect(ja).toContain(term);
    expect(new Set(GLOSSARY.map((g) => g.en)).size).toBe(GLOSSARY.length);
  });

  it('every checked term is translated as the glossary says', () => {
    const problems: string[] = [];
    const strip = (m: string) => m.replace(/\{[A-Za-z0-9_]+\}/g, '');
    for (const g of GLOSSARY) {
      if (!g.check) continue;
      const stem = g.jaStem ?? g.ja;
      for (const [key, en] of Object.entries(CATALOGUE.en)) {
        if (!g.check.test(strip(en))) continue;
        const ja = CATALOGUE.ja[key];
        if (!ja.includes(stem)) problems.push(`${key}: "${en}" uses "${g.en}" but "${ja}" lacks "${stem}"`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the check would catch a drifted translation', () => {
    const g = GLOSSARY.find((e) => e.en === 'export')!;
    expect(g.check!.test('Export failed')).toBe(true);
    expect('エクスポートに失敗しました'.includes(g.jaStem!)).toBe(false);
  });
});
