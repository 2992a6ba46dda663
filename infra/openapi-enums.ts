/**
 * The value sets of an OpenAPI document named once: a set of values (a valibot picklist, `{ enum: [...] }`) written
 * in more than one place becomes a schema of `components.schemas`, and each place refers to it (`$ref`, beside what
 * the place says of it: its description, default or examples), so that a generated client has one type for it. A set
 * written once stays where it is.
 */

type Json = Record<string, unknown>;

/**
 * The names of the sets whose property's name would not say which they are, or would give two sets one name, by
 * their values sorted and joined with `|`. Every other set takes its property's name (`locale`: `Locale`).
 */
export const ENUM_NAMES: Record<string, string> = {
  'active|inactive': 'ActiveStatus',
  'binary|ces|csat|csat5Stars|nps': 'Indicator',
  'closed_unresolved|in_progress|open|resolved': 'CaseStatus',
  'api|chatbot|email|employee|facebook|kiosk|portals|push|qr|qrcode|sms|tablet|ura|whatsapp|widget|workplace': 'AnswerSource',
  // The chatbot API's answers come through it: no `api` source.
  'chatbot|email|employee|facebook|kiosk|portals|push|qr|qrcode|sms|tablet|ura|whatsapp|widget|workplace': 'AnswerSource',
  'detractor|high|low|mid|passive|promoter': 'ScoreBucket',
  'case.opened|case.overdue|case.recovered|case.resolved|survey.answered|survey.failed|transaction.rejected': 'EventType',
  'case.opened|case.overdue|digest|score.drop': 'ChatEvent',
  'admin|chatbot|public': 'KeyScope',
  'daily|off|weekly': 'DigestChoice',
  'day|week': 'DigestPeriod',
  'erase|export': 'PrivacyRequestType',
  // A query's flag, as text.
  'false|true': 'BooleanText',
};

const isObject = (node: unknown): node is Json => !!node && typeof node === 'object' && !Array.isArray(node);

/** A set of values as ENUM_NAMES keys it: the same values in another order are the same set. */
export const setKeyOf = (values: readonly unknown[]): string =>
  values
    .map((value) => (typeof value === 'string' ? value : `#${JSON.stringify(value)}`))
    .sort()
    .join('|');

/** `locale` and `status_code` as a type's name: `Locale`, `StatusCode`. */
const pascal = (name: string) =>
  name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** A value set's schema: an enum node with a value set of its own (not a `properties` map that has a field `enum`). */
const isEnum = (node: Json): node is Json & { enum: unknown[] } => Array.isArray(node.enum) && node.enum.length > 1;

interface Place {
  node: Json;
  /** The field, parameter or component it is the schema of, when there is one. */
  name: string | undefined;
}

/** Every schema node of a document with a value set, and the name of what it describes; examples are values, not walked. */
function enumPlaces(document: unknown): Place[] {
  const places: Place[] = [];
  const walk = (node: unknown, name: string | undefined): void => {
    if (Array.isArray(node)) return node.forEach((item) => walk(item, name));
    if (!isObject(node)) return;
    if (isEnum(node)) places.push({ node, name });
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'examples' || key === 'enum' || key === 'const' || key === 'default') continue;
      if ((key === 'properties' || key === 'schemas') && isObject(value))
        for (const [field, schema] of Object.entries(value)) walk(schema, field);
      else if (key === 'schema' && typeof node.name === 'string') walk(value, node.name);
      else walk(value, name);
    }
  };
  walk(document, undefined);
  return places;
}

/** The value sets written inline more than once, by their key: what a document with named sets has none of. */
export function repeatedEnums(document: unknown): Record<string, number> {
  const counts = new Map<string, number>();
  for (const { node } of enumPlaces(document)) {
    const key = setKeyOf(node.enum as unknown[]);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].filter(([, count]) => count > 1));
}

/**
 * The document with each value set written more than once named in `components.schemas` and referred to wherever it
 * was written. Two sets given one name, or a name a component already has, fail the build: name one in ENUM_NAMES.
 */
export function withNamedEnums<T extends Json>(document: T, names: Record<string, string> = ENUM_NAMES): T {
  const copy = structuredClone(document);
  const places = enumPlaces(copy);
  const bySet = new Map<string, Place[]>();
  for (const place of places) {
    const key = setKeyOf(place.node.enum as unknown[]);
    bySet.set(key, [...(bySet.get(key) ?? []), place]);
  }
  const components = ((copy as Json).components ??= {}) as { schemas?: Record<string, Json> };
  const schemas = (components.schemas ??= {});
  const named = new Map<string, string>();
  for (const [key, written] of bySet) {
    if (written.length < 2) continue;
    // The name its places give it most often, the first of those among equals.
    const counts = new Map<string, number>();
    for (const { name } of written) if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
    const [common] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? [];
    const name = names[key] ?? (common ? pascal(common) : undefined);
    if (!name) throw new Error(`The value set ${key} is written ${written.length} times with no name: name it in ENUM_NAMES`);
    if (schemas[name] || named.has(name))
      throw new Error(
        `The value sets ${key} and ${named.get(name) ?? `of the component ${name}`} would both be named ${name}: name one in ENUM_NAMES`,
      );
    named.set(name, key);
    const [first] = written;
    const { type, enum: values } = first!.node;
    schemas[name] = { ...(type === undefined ? {} : { type }), enum: values };
    for (const { node } of written) {
      delete node.type;
      delete node.enum;
      // A place's own words about it stay beside the reference (OpenAPI 3.1 allows them).
      const rest = { ...node };
      for (const field of Object.keys(node)) delete node[field];
      Object.assign(node, { $ref: `#/components/schemas/${name}` }, rest);
    }
  }
  return copy;
}
