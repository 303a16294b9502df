/**
 * What an edit reports, as figures rather than sentences: each figure names a catalogue message
 * (`edits.figure.<key>`, shared/i18n/messages/edits.ts) and its values with their units, so the
 * studio writes "keys 1,204 → 311 (25.8%)" / "キー 1,204 → 311（25.8%）" with Intl numbers in the
 * user's language from the same numbers. The CLI keeps its English line (`cli`), unchanged.
 * Pure (no DOM): the registry builds the figures, renderer/panels/editText.ts words them.
 */
import type { MessageKey } from '../i18n/catalogue';
import type { Motion } from '../motion/types';
import { boneChannel } from '../motion/types';
import { hipsToWorld } from '../vrma/normalizedTracks';

/** A figure message of the catalogue: `edits.figure.<key>`. */
export type FigureKey = MessageKey extends infer K ? (K extends `edits.figure.${infer F}` ? F : never) : never;

/**
 * How a value is shown: 's' seconds, 'rad' an angle, 'm'/'cm'/'mm' a length (the value is in that
 * unit), 'count' a whole number (plurals), 'ratio' a percentage of 1, 'factor' ×N, 'fps', 'name' text.
 */
export type FigureUnit = 's' | 'rad' | 'm' | 'cm' | 'mm' | 'count' | 'ratio' | 'factor' | 'fps' | 'name';

export interface FigureValue {
  readonly value: number | string;
  readonly unit: FigureUnit;
}

export interface EditFigure {
  readonly key: FigureKey;
  readonly values: Readonly<Record<string, FigureValue>>;
}

/** One report line: the CLI's English text (absent: the CLI prints nothing for it) and the figures the studio shows. */
export interface ReportLine {
  readonly cli?: string;
  readonly figures: readonly EditFigure[];
}

export const figure = (key: FigureKey, values: Readonly<Record<string, FigureValue>> = {}): EditFigure => ({ key, values });
export const sec = (value: number): FigureValue => ({ value, unit: 's' });
export const rad = (value: number): FigureValue => ({ value, unit: 'rad' });
export const metres = (value: number): FigureValue => ({ value, unit: 'm' });
export const cm = (metresValue: number): FigureValue => ({ value: metresValue * 100, unit: 'cm' });
export const mm = (metresValue: number): FigureValue => ({ value: metresValue * 1000, unit: 'mm' });
export const count = (value: number): FigureValue => ({ value, unit: 'count' });
export const ratio = (value: number): FigureValue => ({ value, unit: 'ratio' });
export const factor = (value: number): FigureValue => ({ value, unit: 'factor' });
export const fps = (value: number): FigureValue => ({ value, unit: 'fps' });
export const name = (value: string): FigureValue => ({ value, unit: 'name' });

export const keyCount = (m: Motion): number => m.channels.reduce((s, c) => s + c.times.length, 0);

/**
 * How far the hips travel horizontally from where they start (world metres, the largest distance over
 * the keys; with a range, over the keys inside it from the first of them).
 */
export function hipsTravel(m: Motion, range?: { readonly from: number; readonly to: number }): number {
  const c = boneChannel(m, 'hips', 'translation');
  if (!c || c.times.length < 2) return 0;
  const w = hipsToWorld(c.values, m);
  let first = -1;
  let most = 0;
  for (let k = 0; k < c.times.length; k++) {
    if (range && (c.times[k] < range.from - 1e-5 || c.times[k] > range.to + 1e-5)) continue;
    if (first < 0) first = k;
    else most = Math.max(most, Math.hypot(w[3 * k] - w[3 * first], w[3 * k + 2] - w[3 * first + 2]));
  }
  return most;
}
