/**
 * What the studio shows for an edit of the registry, in the current language: the catalogue's
 * `edit.<id>.*` keys (shared/i18n/messages/edits.ts), the registry's English as the fallback for an
 * edit registered without keys. Unit labels stay symbols (s, rad, m, fps) in both languages.
 */
import type { EditDefinition, EditParam, NumberParam, UnavailableReason } from '../../shared/edits/registry';
import type { EditFigure, FigureValue } from '../../shared/edits/editReport';
import { MotionError } from '../../shared/errors';
import { t, translate, formatNumber, formatPercent, getLocale, type Params } from '../../shared/i18n';

export const editLabel = (def: EditDefinition): string => translate(`edit.${def.id}.label`, undefined, def.label);
export const editHelp = (def: EditDefinition): string => translate(`edit.${def.id}.help`, undefined, def.summary);
export const paramLabel = (def: EditDefinition, p: EditParam): string => translate(`edit.${def.id}.param.${p.name}`, undefined, p.label);
export const paramHelp = (def: EditDefinition, p: EditParam): string => translate(`edit.${def.id}.param.${p.name}.help`, undefined, p.help);
export const reasonText = (code: UnavailableReason, fallback: string): string => translate(`edit.reason.${code}`, undefined, fallback);

const withUnit = (x: number, unit: string) => (unit ? `${formatNumber(x, 6)} ${unit}` : formatNumber(x, 6));

/** Accepted values of a number parameter: "0 s to 5 s", "more than 0 s; at most half the motion". */
export function rangeLabel(def: EditDefinition, p: NumberParam): string {
  const min = withUnit(p.min, p.unit);
  const max = withUnit(p.max, p.unit);
  const args: Params = { min, max };
  const base = Number.isFinite(p.max)
    ? t(p.minExclusive ? 'edits.range.moreThanAtMost' : 'edits.range.between', args)
    : t(p.minExclusive ? 'edits.range.moreThan' : 'edits.range.atLeast', args);
  const limit = p.limit ? translate(`edit.${def.id}.param.${p.name}.limit`, undefined, p.limit) : null;
  return limit ? `${base}; ${limit}` : base;
}

/** A number field's label with its unit: "Blend (s)" / "ブレンド（s）". */
export function fieldLabel(def: EditDefinition, p: EditParam): string {
  const label = paramLabel(def, p);
  return p.kind === 'number' && p.unit ? t('edits.fieldWithUnit', { label, unit: p.unit }) : label;
}

/** A field's tooltip: help, accepted values and default. */
export function fieldTitle(def: EditDefinition, p: EditParam): string {
  if (p.kind === 'boolean') return paramHelp(def, p);
  const range = rangeLabel(def, p);
  const help = paramHelp(def, p);
  return p.default === undefined ? t('edits.fieldHelp', { help, range }) : t('edits.fieldHelpDefault', { help, range, value: withUnit(p.default, p.unit) });
}

/** Three significant digits, however small (a loop seam of 3.2e-7 rad is not "0"). */
function significant(x: number): string {
  if (x === 0 || !Number.isFinite(x)) return formatNumber(x);
  const digits = Math.max(0, 2 - Math.floor(Math.log10(Math.abs(x))));
  return formatNumber(Number(x.toPrecision(3)), digits);
}

/** One value of a report figure in the current language (Intl numbers; unit symbols as the UI writes them). */
export function figureValue(v: FigureValue): string | number {
  if (typeof v.value === 'string') return v.value;
  const x = v.value;
  switch (v.unit) {
    case 's':
      return `${formatNumber(x, 2, 2)} s`;
    case 'rad':
      return `${significant(x)} rad`;
    case 'm':
      return `${formatNumber(x, 2, 2)} m`;
    case 'cm':
      return `${significant(x)} cm`;
    case 'mm':
      return `${significant(x)} mm`;
    case 'ratio':
      return formatPercent(x, 1);
    case 'factor':
      return `×${formatNumber(x, 3)}`;
    case 'fps':
      return `${formatNumber(x, 2)} fps`;
    case 'count':
      return x; // the message formats it (plurals)
    default:
      return String(x);
  }
}

/** One figure of an edit's report, worded by the catalogue (`edits.figure.<key>`). */
export function figureText(f: EditFigure): string {
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(f.values)) params[k] = figureValue(v);
  return translate(`edits.figure.${f.key}`, params);
}

/** What an edit did: "Optimize: keys 1,204 → 311 (25.8%), largest error …" / "キーの間引き: キー 1,204 → 311（25.8%）、最大誤差 …". */
export function editReportText(def: EditDefinition, figures: readonly EditFigure[]): string {
  const parts = figures.map(figureText);
  return t('edits.report', { edit: editLabel(def), report: parts.join(getLocale() === 'ja' ? '、' : ', ') });
}

/**
 * A parameter error of an edit with the names the panel shows: the core names a parameter by its
 * registry name ("sigma must be between ..."), the panel by its label ("シグマ", "Sigma").
 */
export function withParamLabels(def: EditDefinition, e: unknown): unknown {
  if (!(e instanceof MotionError) || !e.detail) return e;
  const params = { ...e.params };
  const p = def.params.find((x) => x.name === params.name);
  if (p) params.name = paramLabel(def, p);
  if (params.edit === def.id) params.edit = editLabel(def);
  return new MotionError(e.code, e.detail, params);
}
