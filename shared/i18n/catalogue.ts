/**
 * All areas combined into one catalogue per language. To add an area: create
 * messages/<area>.ts with `export default defineMessages({ en: {...}, ja: {...} })` and list it in
 * AREAS below (one line). Keys are `area.name` (edits use `edit.<id>.*`, errors `error.<CODE>`,
 * commands `command.<id>.*`); a key defined in two areas fails tests/unit/i18n/catalogue.test.ts.
 */
import type { AreaMessages } from './messages/define';
import type { Locale } from './locale';
import studio from './messages/studio';
import menu from './messages/menu';
import commands from './messages/commands';
import library from './messages/library';
import errors from './messages/errors';
import bedroom from './messages/bedroom';
import edits from './messages/edits';
import optimize from './messages/optimize';
import ik from './messages/ik';
import timeline from './messages/timeline';
import keys from './messages/keys';
import autoKey from './messages/autoKey';
import expressions from './messages/expressions';
import curves from './messages/curves';
import convert from './messages/convert';
import avatar from './messages/avatar';
import onion from './messages/onion';
import warnings from './messages/warnings';
import compat from './messages/compat';
import exporting from './messages/exporting';
import notices from './messages/notices';
import capture from './messages/capture';

export const AREAS = {
  studio,
  menu,
  commands,
  library,
  errors,
  edits,
  optimize,
  ik,
  bedroom,
  timeline,
  keys,
  autoKey,
  expressions,
  curves,
  convert,
  avatar,
  onion,
  warnings,
  compat,
  exporting,
  notices,
  capture,
} as const;

type KeysOf<A> = A extends AreaMessages<infer K> ? K : never;
/** Every key of the catalogue: t() accepts only these (keys built at run time go through translate()). */
export type MessageKey = { [A in keyof typeof AREAS]: KeysOf<(typeof AREAS)[A]> }[keyof typeof AREAS];

function combine(locale: Locale): Readonly<Record<string, string>> {
  const out: Record<string, string> = Object.create(null);
  for (const area of Object.values(AREAS) as AreaMessages[]) Object.assign(out, area[locale]);
  return out;
}

export const CATALOGUE: Readonly<Record<Locale, Readonly<Record<string, string>>>> = {
  en: combine('en'),
  ja: combine('ja'),
};
