/**
 * Helper every area file uses: `export default defineMessages({ en: {...}, ja: {...} })`.
 * The type makes a key missing from (or extra in) `ja` a compile error; tests/unit/i18n/catalogue.test.ts
 * checks the same at run time, plus placeholders and syntax.
 */
export type AreaMessages<K extends string = string> = {
  readonly en: Readonly<Record<K, string>>;
  readonly ja: Readonly<Record<K, string>>;
};

export function defineMessages<E extends Record<string, string>>(m: {
  readonly en: E;
  readonly ja: { readonly [K in keyof E]: string };
}): AreaMessages<keyof E & string> {
  return m as AreaMessages<keyof E & string>;
}
