/** Numbers, durations, sizes and dates come out in the UI language through Intl. */
import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatDuration, formatList, formatNumber, formatPercent, formatSize, setLocale } from '../../../shared/i18n';

afterEach(() => setLocale('en'));

describe('Intl formatters in the current locale', () => {
  it('numbers and percents', () => {
    expect(formatNumber(12345.678)).toBe('12,345.68');
    expect(formatNumber(2.5, 3, 3)).toBe('2.500');
    expect(formatPercent(0.254)).toBe('25%');
    setLocale('ja');
    expect(formatNumber(12345.678)).toBe('12,345.68');
    expect(formatPercent(0.254)).toBe('25%');
  });

  it('durations: seconds, minutes, hours, in English and Japanese', () => {
    expect(formatDuration(2.5)).toBe('2.5 sec');
    expect(formatDuration(65.25)).toBe('1 min 5.3 sec');
    expect(formatDuration(3723)).toBe('1 hr 2 min');
    expect(formatDuration(-1)).toBe('-1 sec');
    setLocale('ja');
    expect(formatDuration(2.5)).toBe('2.5 秒');
    expect(formatDuration(65.25)).toBe('1 分 5.3 秒');
    expect(formatDuration(3723)).toBe('1 時間 2 分');
  });

  it('sizes in decimal units', () => {
    expect(formatSize(512)).toBe('512 byte');
    expect(formatSize(1530)).toBe('1.5 kB');
    expect(formatSize(2_400_000)).toBe('2.4 MB');
    expect(formatSize(48_000_000)).toBe('48 MB');
    setLocale('ja');
    expect(formatSize(512)).toBe('512 byte');
    expect(formatSize(1530)).toBe('1.5 KB');
  });

  it('dates and lists', () => {
    const d = Date.UTC(2026, 11, 1, 9, 5);
    // Time zone of the machine varies: check the date part, which is the same in every zone from -9 to +14.
    expect(formatDate(d, 'date')).toBe('Dec 1, 2026');
    expect(formatList(['a', 'b', 'c'])).toBe('a, b, and c');
    setLocale('ja');
    expect(formatDate(d, 'date')).toBe('2026/12/01');
    expect(formatList(['a', 'b', 'c'])).toBe('a、b、c');
  });
});
