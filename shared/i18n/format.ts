/**
 * A small ICU MessageFormat subset, enough for the studio's messages:
 *   {name}                          the parameter as text (numbers through Intl.NumberFormat)
 *   {name, number}                  a number in the locale
 *   {count, plural, =0 {none} one {# key} other {# keys}}   plural categories from Intl.PluralRules; # = the count
 *   {kind, select, pose {a pose} other {a motion}}          choice by a string parameter
 * Literal braces are written '{' and '}' (ICU apostrophe quoting); a lone apostrophe is kept as is.
 * Parsing happens once per message and locale (cached), formatting is a walk over the parsed parts.
 */

export type Params = Readonly<Record<string, string | number>>;

type Part =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'arg'; readonly name: string; readonly style: 'text' | 'number' }
  | { readonly kind: 'plural'; readonly name: string; readonly cases: ReadonlyMap<string, readonly Part[]> }
  | { readonly kind: 'select'; readonly name: string; readonly cases: ReadonlyMap<string, readonly Part[]> }
  | { readonly kind: 'hash' };

export class MessageSyntaxError extends Error {
  constructor(message: string, source: string) {
    super(`${message} in message "${source}"`);
    this.name = 'MessageSyntaxError';
  }
}

/** Parses a message into parts; throws MessageSyntaxError for unbalanced braces or unknown argument types. */
export function parseMessage(source: string): readonly Part[] {
  let i = 0;
  const parseParts = (inPlural: boolean, nested: boolean): Part[] => {
    const parts: Part[] = [];
    let text = '';
    const flush = () => {
      if (text) parts.push({ kind: 'text', text });
      text = '';
    };
    while (i < source.length) {
      const c = source[i];
      if (c === "'" && (source[i + 1] === '{' || source[i + 1] === '}' || source[i + 1] === '#')) {
        const end = source.indexOf("'", i + 1);
        if (end < 0) throw new MessageSyntaxError('unclosed quote', source);
        text += source.slice(i + 1, end);
        i = end + 1;
      } else if (c === "'" && source[i + 1] === "'") {
        text += "'";
        i += 2;
      } else if (c === '{') {
        flush();
        i++;
        parts.push(parseArgument());
      } else if (c === '}') {
        if (!nested) throw new MessageSyntaxError('unbalanced "}"', source);
        flush();
        return parts;
      } else if (c === '#' && inPlural) {
        flush();
        parts.push({ kind: 'hash' });
        i++;
      } else {
        text += c;
        i++;
      }
    }
    if (nested) throw new MessageSyntaxError('unclosed "{"', source);
    flush();
    return parts;
  };
  const skipSpace = () => {
    while (i < source.length && /\s/.test(source[i])) i++;
  };
  const word = (): string => {
    skipSpace();
    const start = i;
    while (i < source.length && /[^\s,{}]/.test(source[i])) i++;
    return source.slice(start, i);
  };
  const parseArgument = (): Part => {
    const name = word();
    if (!name) throw new MessageSyntaxError('empty argument name', source);
    skipSpace();
    if (i >= source.length) throw new MessageSyntaxError('unclosed "{"', source);
    if (source[i] === '}') {
      i++;
      return { kind: 'arg', name, style: 'text' };
    }
    if (source[i] !== ',') throw new MessageSyntaxError(`expected "," or "}" after {${name}`, source);
    i++;
    const type = word();
    skipSpace();
    if (type === 'number') {
      if (source[i] !== '}') throw new MessageSyntaxError(`expected "}" after {${name}, number`, source);
      i++;
      return { kind: 'arg', name, style: 'number' };
    }
    if (type !== 'plural' && type !== 'select') throw new MessageSyntaxError(`unknown argument type "${type}"`, source);
    if (source[i] !== ',') throw new MessageSyntaxError(`expected "," after {${name}, ${type}`, source);
    i++;
    const cases = new Map<string, Part[]>();
    for (;;) {
      skipSpace();
      if (source[i] === '}') {
        i++;
        break;
      }
      const key = word();
      skipSpace();
      if (!key || source[i] !== '{') throw new MessageSyntaxError(`expected "{" after case "${key}" of {${name}}`, source);
      i++;
      cases.set(key, parseParts(type === 'plural', true));
      i++; // the case's closing brace
    }
    if (!cases.has('other')) throw new MessageSyntaxError(`{${name}, ${type}} needs an "other" case`, source);
    return { kind: type, name, cases };
  };
  return parseParts(false, false);
}

/** Parameter names a message uses (for the en/ja placeholder check). */
export function placeholdersOf(source: string): string[] {
  const names = new Set<string>();
  const walk = (parts: readonly Part[]) => {
    for (const p of parts) {
      if (p.kind === 'arg') names.add(p.name);
      else if (p.kind === 'plural' || p.kind === 'select') {
        names.add(p.name);
        for (const c of p.cases.values()) walk(c);
      }
    }
  };
  walk(parseMessage(source));
  return [...names].sort();
}

const parsed = new Map<string, readonly Part[]>();
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cachedParse(source: string): readonly Part[] {
  let p = parsed.get(source);
  if (!p) {
    p = parseMessage(source);
    parsed.set(source, p);
  }
  return p;
}

function numberFormat(locale: string): Intl.NumberFormat {
  let f = numberFormats.get(locale);
  if (!f) {
    f = new Intl.NumberFormat(locale, { maximumFractionDigits: 3 });
    numberFormats.set(locale, f);
  }
  return f;
}

function pluralRule(locale: string): Intl.PluralRules {
  let r = pluralRules.get(locale);
  if (!r) {
    r = new Intl.PluralRules(locale);
    pluralRules.set(locale, r);
  }
  return r;
}

/**
 * Formats a message. A parameter the message names but the caller did not pass is shown as {name}
 * (visible in the UI and caught by tests) rather than throwing in the middle of a render.
 */
export function formatMessage(source: string, params: Params | undefined, locale: string): string {
  const parts = cachedParse(source);
  const out: string[] = [];
  const render = (list: readonly Part[], count: number | null) => {
    for (const p of list) {
      switch (p.kind) {
        case 'text':
          out.push(p.text);
          break;
        case 'hash':
          out.push(count === null ? '#' : numberFormat(locale).format(count));
          break;
        case 'arg': {
          const v = params?.[p.name];
          if (v === undefined) out.push(`{${p.name}}`);
          else out.push(typeof v === 'number' ? numberFormat(locale).format(v) : v);
          break;
        }
        case 'plural': {
          const v = Number(params?.[p.name]);
          if (!Number.isFinite(v)) {
            out.push(`{${p.name}}`);
            break;
          }
          const chosen = p.cases.get(`=${v}`) ?? p.cases.get(pluralRule(locale).select(v)) ?? p.cases.get('other')!;
          render(chosen, v);
          break;
        }
        case 'select': {
          const v = String(params?.[p.name] ?? '');
          render(p.cases.get(v) ?? p.cases.get('other')!, count);
          break;
        }
      }
    }
  };
  render(parts, null);
  return out.join('');
}
