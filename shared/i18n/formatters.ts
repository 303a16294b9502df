/**
 * Numbers, durations, sizes and dates in the current UI language, all through Intl (one cached
 * formatter per locale and style). Everything the UI shows as a number goes through here.
 */
import { getLocale } from './translate';

const cache = new Map<string, Intl.NumberFormat>();
function nf(key: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = `${getLocale()}|${key}`;
  let f = cache.get(k);
  if (!f) {
    f = new Intl.NumberFormat(getLocale(), opts);
    cache.set(k, f);
  }
  return f;
}

/** A plain number with at most `maxFraction` decimals: 1234.5 -> "1,234.5". */
export function formatNumber(n: number, maxFraction = 2, minFraction = 0): string {
  return nf(`n${minFraction}-${maxFraction}`, { maximumFractionDigits: maxFraction, minimumFractionDigits: minFraction }).format(n);
}

/** 0.25 -> "25%". */
export function formatPercent(ratio: number, maxFraction = 0): string {
  return nf(`p${maxFraction}`, { style: 'percent', maximumFractionDigits: maxFraction }).format(ratio);
}

/** A quantity with a unit Intl knows ("second", "degree", "meter", "frame" is not one: use messages). */
export function formatUnit(n: number, unit: string, maxFraction = 2): string {
  return nf(`u${unit}${maxFraction}`, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: maxFraction }).format(n);
}

/**
 * A duration in seconds: under a minute "2.5 s" / "2.5 秒"; longer "1 min 5.2 s" / "1 分 5.2 秒";
 * an hour or more "1 hr 2 min" / "1 時間 2 分".
 */
export function formatDuration(seconds: number, maxFraction = 2): string {
  if (!Number.isFinite(seconds)) return formatNumber(seconds);
  const sign = seconds < 0 ? '-' : '';
  let s = Math.abs(seconds);
  if (s < 60) return sign + formatUnit(s, 'second', maxFraction);
  const hours = Math.floor(s / 3600);
  s -= hours * 3600;
  const minutes = Math.floor(s / 60);
  s -= minutes * 60;
  const parts: string[] = [];
  if (hours) parts.push(formatUnit(hours, 'hour', 0));
  if (minutes || hours) parts.push(formatUnit(minutes, 'minute', 0));
  if (!hours) parts.push(formatUnit(s, 'second', Math.min(maxFraction, 1)));
  return sign + parts.join(' ');
}

const SIZE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte'] as const;
/** A file size in bytes with decimal units: 1530 -> "1.5 kB", 2_400_000 -> "2.4 MB". */
export function formatSize(bytes: number): string {
  let v = Math.max(0, bytes);
  let u = 0;
  while (v >= 1000 && u < SIZE_UNITS.length - 1) {
    v /= 1000;
    u++;
  }
  return formatUnit(v, SIZE_UNITS[u], u === 0 ? 0 : v < 10 ? 1 : 0);
}

const dateCache = new Map<string, Intl.DateTimeFormat>();
/** A date (Date or epoch ms) with date and time: "Dec 1, 2026, 9:05 AM" / "2026/12/01 9:05". */
export function formatDate(d: Date | number, style: 'datetime' | 'date' | 'time' = 'datetime'): string {
  const k = `${getLocale()}|${style}`;
  let f = dateCache.get(k);
  if (!f) {
    const opts: Intl.DateTimeFormatOptions = style === 'date' ? { dateStyle: 'medium' } : style === 'time' ? { timeStyle: 'short' } : { dateStyle: 'medium', timeStyle: 'short' };
    f = new Intl.DateTimeFormat(getLocale(), opts);
    dateCache.set(k, f);
  }
  return f.format(typeof d === 'number' ? new Date(d) : d);
}

/** Items joined as a list: ["a","b","c"] -> "a, b, and c" / "a、b、c". */
export function formatList(items: readonly string[]): string {
  return new Intl.ListFormat(getLocale(), { style: 'long', type: 'conjunction' }).format(items);
}
