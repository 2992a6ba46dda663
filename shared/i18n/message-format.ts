/**
 * The part of ICU MessageFormat the catalogues use, formatted as FormatJS's intl-messageformat formats it: plain
 * arguments, `{n, number}`, `{x, select, …}` and `{n, plural, =0 {…} one {# …} other {…}}`, with ICU's apostrophe
 * quoting. The library's parser was 65 KiB of every bundle that shows a message, loaded at every cold start
 * (test/unit/i18n.test.ts formats every message of every catalogue both ways and compares). Anything else (a date, a
 * style, an offset, a tag) is refused when the message is first used, and by that test before.
 */
type Part =
  | string
  | { kind: 'argument'; name: string }
  | { kind: 'number'; name: string }
  | { kind: 'select'; name: string; options: Record<string, Part[]> }
  | { kind: 'plural'; name: string; options: Record<string, Part[]> }
  | { kind: 'pound' };

export type MessageValues = Record<string, string | number>;

/** A message's parts, read once. */
export function parseMessage(message: string): Part[] {
  let at = 0;
  const fail = (what: string): never => {
    throw new Error(`Message "${message}": ${what} at ${at}.`);
  };
  const skipSpace = () => {
    while (/\s/.test(message[at] ?? '')) at++;
  };
  const word = () => {
    skipSpace();
    const start = at;
    while (at < message.length && !/[\s,{}]/.test(message[at]!)) at++;
    if (at === start) fail('a name expected');
    return message.slice(start, at);
  };
  const expect = (char: string) => {
    skipSpace();
    if (message[at] !== char) fail(`"${char}" expected`);
    at++;
  };

  function parts(depth: number, inPlural: boolean): Part[] {
    const found: Part[] = [];
    let text = '';
    while (at < message.length) {
      const char = message[at]!;
      if (char === "'") {
        const next = message[at + 1];
        if (next === "'") {
          text += "'";
          at += 2;
        } else if (next === '{' || next === '}' || next === '<' || next === '>' || (next === '#' && inPlural)) {
          // Quoted: literal up to the next lone apostrophe ('' inside is one).
          at++;
          text += message[at++];
          while (at < message.length) {
            if (message[at] === "'") {
              if (message[at + 1] !== "'") {
                at++;
                break;
              }
              at++;
            }
            text += message[at++];
          }
        } else text += message[at++];
      } else if (char === '{') {
        if (text) found.push(text);
        text = '';
        at++;
        found.push(argument());
      } else if (char === '}' && depth > 0) break;
      else if (char === '#' && inPlural) {
        if (text) found.push(text);
        text = '';
        at++;
        found.push({ kind: 'pound' });
      } else if (char === '<') fail('tags are not supported');
      else text += message[at++];
    }
    if (text) found.push(text);
    return found;
  }

  function argument(): Part {
    const name = word();
    skipSpace();
    if (message[at] === '}') {
      at++;
      return { kind: 'argument', name };
    }
    expect(',');
    const type = word();
    skipSpace();
    if (type === 'number' && message[at] === '}') {
      at++;
      return { kind: 'number', name };
    }
    if (type !== 'select' && type !== 'plural') return fail(`"${type}" is not supported`);
    expect(',');
    const options: Record<string, Part[]> = {};
    skipSpace();
    while (message[at] !== '}') {
      if (at >= message.length) fail('"}" expected');
      const key = word();
      if (key.startsWith('offset:')) fail('an offset is not supported');
      expect('{');
      options[key] = parts(1, type === 'plural');
      expect('}');
      skipSpace();
    }
    at++;
    if (!options.other) fail(`the ${type} of "${name}" has no "other"`);
    return { kind: type as 'select' | 'plural', name, options };
  }

  return parts(0, false);
}

// Made at their first use, never at load (each loads ICU's data for its locale).
const numberFormats = new Map<string, Intl.NumberFormat>();
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormat = (locale: string) => numberFormats.get(locale) ?? numberFormats.set(locale, new Intl.NumberFormat(locale)).get(locale)!;

/** A parsed message with its values, in a locale's plural rules and number format. */
export function formatMessage({
  parts,
  locale,
  values = {},
  plural,
}: {
  parts: Part[];
  locale: string;
  values?: MessageValues;
  plural?: number;
}): string {
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if (part.kind === 'pound') {
      if (plural !== undefined) text += numberFormat(locale).format(plural);
      continue;
    }
    if (!(part.name in values)) throw new Error(`The message needs a value for "${part.name}".`);
    const value = values[part.name]!;
    if (part.kind === 'argument') text += String(value);
    else if (part.kind === 'number') text += numberFormat(locale).format(Number(value));
    else if (part.kind === 'select') text += formatMessage({ parts: part.options[value] ?? part.options.other!, locale, values });
    else {
      const rules = pluralRules.get(locale) ?? pluralRules.set(locale, new Intl.PluralRules(locale)).get(locale)!;
      const chosen = part.options[`=${value}`] ?? part.options[rules.select(Number(value))] ?? part.options.other!;
      text += formatMessage({ parts: chosen, locale, values, plural: Number(value) });
    }
  }
  return text;
}
