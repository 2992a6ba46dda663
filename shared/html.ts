/**
 * HTML by construction: every page, e-mail and alert is written with the `html` tagged template, which escapes each
 * value it is given unless the value is already HTML (a `SafeHtml`, made only by `html` itself or by `raw` for a
 * vetted constant). Lists of values join; null, undefined and false render nothing. Attribute values are quoted in
 * the templates, and escaping covers both quotes, so a value never leaves its attribute. Three contexts need more
 * than escaping, and the template checks them: a link or a source (href, src, action, formaction) must end up an
 * http(s) or relative URL (`javascript:` and other schemes throw), a value inside a style attribute or a style or
 * script element must be a checked `Colour`, a number or `SafeHtml` (a string throws), and an unquoted attribute
 * value throws. Links, logos and colours from records are made by `safeUrl` and `colour`, which check them once.
 */

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (e) => Object.keys(ESCAPES).find((c) => ESCAPES[c] === e)!);

/** Markup that is safe to put in a page as it is. */
class Trusted {
  readonly #html: string;
  constructor(html: string) {
    this.#html = html;
  }
  toString() {
    return this.#html;
  }
}
export type SafeHtml = Trusted;

/** An address checked to be http(s) or relative: what a page may link to or load. */
class CheckedUrl {
  readonly #href: string;
  constructor(href: string) {
    this.#href = href;
  }
  toString() {
    return this.#href;
  }
}
export type SafeUrl = CheckedUrl;

/** A colour checked to be `#rrggbb`: what a style may hold. */
class CheckedColour {
  readonly #hex: string;
  constructor(hex: string) {
    this.#hex = hex;
  }
  toString() {
    return this.#hex;
  }
}
export type Colour = CheckedColour;

export type HtmlValue = SafeHtml | SafeUrl | Colour | string | number | null | undefined | false | readonly HtmlValue[];

/**
 * Whether a browser would follow an address as http(s) (or mailto, tel) or relative to the page: its scheme, if it has one (letters
 * before a colon that comes before any `/`, `?` or `#`, once tabs, newlines and leading blanks are dropped as browsers
 * drop them), is http or https.
 */
export function isSafeUrl(href: string): boolean {
  const seen = href.replace(/[\t\n\r]/g, '').replace(/^[^\x21-\uFFFF]+/, '');
  const scheme = /^([^/?#]*):/.exec(seen)?.[1];
  return scheme === undefined || /^(https?|mailto|tel)$/i.test(scheme);
}

/** An address a page may use as a link or a source, or undefined when it is not http(s) or relative. */
export const safeUrl = (href: string | undefined): SafeUrl | undefined =>
  href !== undefined && isSafeUrl(href) ? new CheckedUrl(href) : undefined;

/** A colour a style may hold: `#rrggbb` only, else undefined. */
export const colour = (hex: string | undefined): Colour | undefined =>
  hex !== undefined && /^#[0-9a-fA-F]{6}$/.test(hex) ? new CheckedColour(hex) : undefined;

/** A vetted constant (a stylesheet, an icon's markup) as HTML: never a value from a request or a record. */
export const raw = (html: string): SafeHtml => new Trusted(html);

const URL_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction']);

/** Where a template's values land: the URL attributes to check, and the values that escaping alone does not make safe. */
interface Shape {
  /** Each URL attribute holding a value: from [literal, offset] to [literal, offset] of its value. */
  urls: { from: [number, number]; to: [number, number] }[];
  /** The values inside a style attribute or a style or script element. */
  code: Set<number>;
}

const shapes = new WeakMap<TemplateStringsArray, Shape>();

/** A template's shape, read once per template (the strings array is the same object at every call). */
function shapeOf(strings: TemplateStringsArray): Shape {
  const known = shapes.get(strings);
  if (known) return known;
  const shape: Shape = { urls: [], code: new Set() };
  let prefix = '';
  const seen = new Set<number>();
  for (let hole = 0; hole < strings.length - 1; hole++) {
    prefix += strings[hole];
    if (prefix.lastIndexOf('<') > prefix.lastIndexOf('>')) {
      if (/=\s*$/.test(prefix)) throw new Error(`An unquoted attribute value in: ${prefix.slice(-60)}`);
      const attribute = /([\w:-]+)\s*=\s*(?:"([^"]*)|'([^']*))$/.exec(prefix);
      if (attribute) {
        const name = attribute[1]!.toLowerCase();
        const quote = attribute[2] !== undefined ? '"' : "'";
        const start = prefix.length - (attribute[2] ?? attribute[3]!).length;
        if (name === 'style') shape.code.add(hole);
        if (URL_ATTRIBUTES.has(name) && !seen.has(start)) {
          seen.add(start);
          let literal = hole + 1;
          while (literal < strings.length && !strings[literal]!.includes(quote)) literal++;
          if (literal === strings.length) throw new Error(`An attribute left open in: ${prefix.slice(-60)}`);
          shape.urls.push({ from: locate(strings, start), to: [literal, strings[literal]!.indexOf(quote)] });
        }
      }
    } else if (/<(style|script)\b[^>]*>(?![\s\S]*<\/\1>)[^<]*$/i.test(prefix)) shape.code.add(hole);
    prefix += '\uE000';
  }
  shapes.set(strings, shape);
  return shape;
}

/** A position in the joined literals (one character per value between them) as [literal, offset]. */
function locate(strings: TemplateStringsArray, position: number): [number, number] {
  let literal = 0;
  while (position > strings[literal]!.length) position -= strings[literal++]!.length + 1;
  return [literal, position];
}

function render(value: HtmlValue, code: boolean): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map((item: HtmlValue) => render(item, code)).join('');
  if (value instanceof Trusted || value instanceof CheckedColour) return String(value);
  if (typeof value === 'number') return String(value);
  if (code) throw new Error('A style or a script holds only a Colour, a number or SafeHtml, never a string.');
  return escapeHtml(String(value));
}

/**
 * A message whose arguments include HTML (a <time> in "due {when}"): the message's words escaped, the HTML as it is.
 * `format` is the catalogue's (a Translate bound to a key).
 */
export function message<A extends Record<string, string | number | SafeHtml>>(
  format: (args: Record<string, string | number>) => string,
  args: A,
): SafeHtml {
  const held: string[] = [];
  const marked = Object.fromEntries(
    Object.entries(args).map(([name, value]) => [
      name,
      value instanceof Trusted
        ? `\uE000${held.push(String(value)) - 1}\uE000`
        : typeof value === 'string'
          ? value.replace(/\uE000/g, '')
          : value,
    ]),
  );
  return new Trusted(escapeHtml(format(marked)).replace(/\uE000(\d+)\uE000/g, (_, index: string) => held[Number(index)]!));
}

/** HTML with every value escaped, unless it is SafeHtml; see the module's comment for the checked contexts. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  const shape = shapeOf(strings);
  const starts: number[] = [];
  let out = '';
  for (let i = 0; i < strings.length; i++) {
    starts.push(out.length);
    out += strings[i];
    if (i < values.length) out += render(values[i], shape.code.has(i));
  }
  for (const { from, to } of shape.urls) {
    const href = unescapeHtml(out.slice(starts[from[0]]! + from[1], starts[to[0]]! + to[1]));
    if (!isSafeUrl(href)) throw new Error('A link or a source that is not http(s) nor relative.');
  }
  return new Trusted(out);
}
