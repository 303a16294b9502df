/** The ICU subset: placeholders, numbers, plurals per locale, select, quoting, and syntax errors. */
import { describe, expect, it, afterEach } from 'vitest';
import { formatMessage, parseMessage, placeholdersOf } from '../../../shared/i18n/format';
import { detectLocale, parseLocale } from '../../../shared/i18n/locale';
import { t, translate, setLocale, getLocale, onLocaleChange, hasMessage } from '../../../shared/i18n';

afterEach(() => setLocale('en'));

describe('formatMessage', () => {
  it('fills placeholders; numbers go through the locale', () => {
    expect(formatMessage('Open {file}', { file: 'walk.vmd' }, 'en')).toBe('Open walk.vmd');
    expect(formatMessage('{n} keys', { n: 12345.678 }, 'en')).toBe('12,345.678 keys');
    expect(formatMessage('{n, number}', { n: 0.5 }, 'ja')).toBe('0.5');
  });

  it('shows a missing parameter as {name} instead of throwing', () => {
    expect(formatMessage('Open {file}', {}, 'en')).toBe('Open {file}');
  });

  it('plurals follow Intl.PluralRules: English one/other, Japanese other only, =N exact cases first', () => {
    const en = '{count, plural, =0 {no keys} one {# key} other {# keys}}';
    expect(formatMessage(en, { count: 0 }, 'en')).toBe('no keys');
    expect(formatMessage(en, { count: 1 }, 'en')).toBe('1 key');
    expect(formatMessage(en, { count: 2 }, 'en')).toBe('2 keys');
    expect(formatMessage(en, { count: 1500 }, 'en')).toBe('1,500 keys');
    const ja = '{count, plural, other {# 個のキー}}';
    expect(formatMessage(ja, { count: 1 }, 'ja')).toBe('1 個のキー');
    expect(formatMessage('{count, plural, one {# file in {dir}} other {# files in {dir}}}', { count: 3, dir: 'a' }, 'en')).toBe('3 files in a');
  });

  it('select picks a case by value, other when none matches', () => {
    const m = '{kind, select, pose {a pose} motion {a motion} other {a file}}';
    expect(formatMessage(m, { kind: 'pose' }, 'en')).toBe('a pose');
    expect(formatMessage(m, { kind: 'x' }, 'en')).toBe('a file');
  });

  it('quotes braces with apostrophes, keeps a lone apostrophe', () => {
    expect(formatMessage("'{'literal'}' and it's {x}", { x: 1 }, 'en')).toBe("{literal} and it's 1");
  });

  it('rejects broken syntax with the message in the error', () => {
    expect(() => parseMessage('Open {file')).toThrow(/unclosed.*Open \{file/);
    expect(() => parseMessage('a } b')).toThrow(/unbalanced/);
    expect(() => parseMessage('{n, plural, one {#}}')).toThrow(/other/);
    expect(() => parseMessage('{n, date}')).toThrow(/unknown argument type "date"/);
  });

  it('lists placeholders, nested ones included', () => {
    expect(placeholdersOf('{count, plural, one {# in {dir}} other {# in {dir}}} {file}')).toEqual(['count', 'dir', 'file']);
  });
});

describe('locale', () => {
  it('detectLocale takes the first supported language of a preference list', () => {
    expect(detectLocale(['ja-JP', 'en-US'])).toBe('ja');
    expect(detectLocale(['en-GB', 'ja'])).toBe('en');
    expect(detectLocale(['fr-FR', 'ja_JP'])).toBe('ja');
    expect(detectLocale(['fr', 'de'])).toBe('en');
    expect(detectLocale([])).toBe('en');
  });

  it('parseLocale accepts only supported codes', () => {
    expect(parseLocale('ja')).toBe('ja');
    expect(parseLocale('ja-JP')).toBe(null);
    expect(parseLocale(3)).toBe(null);
  });

  it('setLocale switches t() and tells subscribers once per change', () => {
    const seen: string[] = [];
    const off = onLocaleChange((l) => seen.push(l));
    expect(t('studio.scene.bedroom')).toBe('Bedroom');
    setLocale('ja');
    setLocale('ja');
    expect(getLocale()).toBe('ja');
    expect(t('studio.scene.bedroom')).toBe('ベッドルーム');
    expect(t('library.openEntry', { file: 'walk.vmd' })).toBe('walk.vmd を開く');
    off();
    setLocale('en');
    expect(seen).toEqual(['ja']);
  });

  it('translate() of an unknown run-time key falls back to the given text, else the key', () => {
    expect(hasMessage('command.edit.undo.label')).toBe(true);
    expect(hasMessage('command.nope.label')).toBe(false);
    expect(translate('command.nope.label', undefined, 'Nope')).toBe('Nope');
    expect(translate('command.nope.label')).toBe('command.nope.label');
    expect(translate('command.edit.undo.label', undefined, 'x', 'ja')).toBe('元に戻す');
  });
});
