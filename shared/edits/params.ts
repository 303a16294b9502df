/** Parameter checks shared by the edits: every nonsense value is refused with one clear BAD_PARAMETER error. */
import { fail } from '../errors';

export function requireFinite(name: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail('BAD_PARAMETER', 'param.notFinite', { name, value: String(value) });
  return value;
}

export function requireNonNegative(name: string, value: number): number {
  requireFinite(name, value);
  if (value < 0) fail('BAD_PARAMETER', 'param.negative', { name, value: String(value) });
  return value;
}

export function requireInRange(name: string, value: number, min: number, max: number, unit = ''): number {
  requireFinite(name, value);
  if (value < min || value > max) fail('BAD_PARAMETER', 'param.between', { name, min: `${min}${unit}`, max: `${max}${unit}`, value: `${value}${unit}` });
  return value;
}

/** Key times written as float32 can differ from the double the user typed by this much. */
export const TIME_EPSILON = 1e-5;

/** A [from, to] range inside a motion of `duration` seconds, from < to. */
export function requireRange(from: number, to: number, duration: number): void {
  requireFinite('from', from);
  requireFinite('to', to);
  if (from < -TIME_EPSILON) fail('BAD_PARAMETER', 'range.beforeStart', { from: String(from) });
  if (to > duration + TIME_EPSILON) fail('BAD_PARAMETER', 'range.afterEnd', { to: String(to), duration: round(duration) });
  if (!(to - from > TIME_EPSILON)) fail('BAD_PARAMETER', 'range.empty', { from: String(from), to: String(to) });
}

export function round(x: number): number {
  return Math.round(x * 1e4) / 1e4;
}
