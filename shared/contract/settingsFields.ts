/**
 * The building blocks of the stored settings' schemas (settings.ts, bedroomSettings.ts): a stored
 * file may be old, partial or hand-edited, so every field reads whatever it finds to a valid value on
 * its own (its range, or its default), and no field's problem costs another field its value. Unlike
 * schema.ts (what a setSettings call may send, refused with a message when wrong), nothing here fails.
 */
import * as v from 'valibot';

export const isPlainObject = (x: unknown): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x);

/** A finite number kept inside [min, max] (then `round`ed), or `fallback` when it is not one. */
export const clampedNumber = (fallback: number, min = -Infinity, max = Infinity, round: (x: number) => number = (x) => x) =>
  v.fallback(
    v.pipe(
      v.number(),
      v.finite(),
      v.transform((x) => round(Math.min(max, Math.max(min, x)))),
    ),
    fallback,
  );

/** A boolean, or `fallback` for anything else. */
export const flag = (fallback: boolean) => v.fallback(v.boolean(), fallback);

/** One of `values` (after `legacy` renames old spellings), or `fallback`. */
export const choice = <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number], legacy: (x: unknown) => unknown = (x) => x) =>
  v.fallback(v.pipe(v.unknown(), v.transform(legacy), v.picklist(values)), fallback);

/**
 * An object of settings: anything that is not a plain object reads as {}, and a missing field as
 * undefined, so each field reads to its own default (valibot would report a missing key); unknown
 * fields are dropped.
 */
export const section = <const E extends v.ObjectEntries>(entries: E) => {
  const missing = Object.fromEntries(Object.keys(entries).map((k) => [k, undefined]));
  return v.pipe(
    v.unknown(),
    v.transform((x): Record<string, unknown> => ({ ...missing, ...(isPlainObject(x) ? x : {}) })),
    v.object(entries),
  );
};

/** Drops the fields whose value is undefined (an optional field that held something invalid). */
export const withoutUndefined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as T;
