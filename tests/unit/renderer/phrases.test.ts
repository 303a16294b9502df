/**
 * Japanese phrase hints (issue 27): the labels cut only between phrases, never mid-word, and
 * no phrase (so no line) starts with punctuation or a closing bracket; joined, the phrases give the
 * text back. Intl.Segmenter is ICU's, shared by Node and Chromium.
 */
import { describe, expect, it } from 'vitest';
import { japanesePhrases } from '../../../renderer/ui/phrases';
import { CATALOGUE } from '../../../shared/i18n/catalogue';

describe('japanesePhrases', () => {
  it("cuts the issue's labels between phrases", () => {
    expect(japanesePhrases('名前を付けて保存…')).toEqual(['名前を', '付けて', '保存…']);
    expect(japanesePhrases('.vrma を書き出し')).toEqual(['.vrma を', '書き出し']);
    expect(japanesePhrases('マネキンアバター')).toEqual(['マネキンアバター']);
    expect(japanesePhrases('範囲を削除')).toEqual(['範囲を', '削除']);
  });

  it('never starts a phrase with punctuation or a closing bracket, and keeps every character, over the whole ja catalogue', () => {
    let multi = 0;
    for (const [key, text] of Object.entries(CATALOGUE.ja)) {
      const phrases = japanesePhrases(text);
      expect(phrases.join(''), key).toBe(text);
      for (const p of phrases.slice(1)) expect(p, `${key}: "${text}"`).not.toMatch(/^[、。，．）」』】…・ー]/u);
      if (phrases.length > 1) multi++;
    }
    // Most Japanese messages have more than one phrase (the hints are not a no-op).
    expect(multi).toBeGreaterThan(Object.keys(CATALOGUE.ja).length / 2);
  });

  it('a hiragana word after 、 starts a phrase; an opening bracket joins the phrase after it', () => {
    expect(japanesePhrases('開きます、または閉じます')).toEqual(['開きます、', 'または', '閉じます']);
    const quoted = japanesePhrases('テイク「歩く」を開く');
    expect(quoted.some((p) => p.startsWith('「'))).toBe(true);
    expect(quoted.every((p) => !p.endsWith('「'))).toBe(true);
  });
});
