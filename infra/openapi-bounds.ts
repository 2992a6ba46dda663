/**
 * The bounds a schema already enforces, stated with the keywords OWASP's API4 rules read: a string's anchored pattern
 * of bounded repetitions fixes its longest value (`maxLength`), and an integer's range its width (`format`). The
 * schemas' validation is unchanged; the document only says what it implies.
 */
export function withBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withBounds);
  if (!node || typeof node !== 'object') return node;
  const schema: Record<string, unknown> = Object.fromEntries(
    Object.entries(node).map(([key, value]) => [
      key,
      // A schema's examples are values; a property of that name (`properties.examples`) is a schema.
      key === 'properties' && value && typeof value === 'object'
        ? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, withBounds(property)]))
        : key === 'example' || key === 'examples'
          ? value
          : withBounds(value),
    ]),
  );
  if (schema.type === 'string' && typeof schema.pattern === 'string' && schema.maxLength === undefined) {
    const longest = longestMatch(schema.pattern);
    if (longest !== undefined) schema.maxLength = longest;
  }
  if (schema.type === 'integer' && schema.format === undefined && typeof schema.minimum === 'number' && typeof schema.maximum === 'number')
    schema.format = schema.minimum >= -(2 ** 31) && schema.maximum < 2 ** 31 ? 'int32' : 'int64';
  return schema;
}

/**
 * The length of the longest string a pattern anchored at both ends matches, or undefined when it has none (a `*`,
 * `+` or `{n,}`) or uses what is not read here (lookarounds, back-references, a `^` or `$` inside).
 */
export function longestMatch(pattern: string): number | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return undefined;
  const source = pattern.slice(1, -1);
  let i = 0;
  const alternatives = (): number => {
    let longest = sequence();
    while (source[i] === '|') {
      i++;
      longest = Math.max(longest, sequence());
    }
    return longest;
  };
  const sequence = (): number => {
    let total = 0;
    while (i < source.length && source[i] !== '|' && source[i] !== ')') total += atom() * repeats();
    return total;
  };
  const atom = (): number => {
    const char = source[i++]!;
    if (char === '(') {
      if (source[i] === '?') {
        if (source[i + 1] !== ':') return NaN;
        i += 2;
      }
      const inner = alternatives();
      return source[i++] === ')' ? inner : NaN;
    }
    if (char === '[') {
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      return source[i++] === ']' ? 1 : NaN;
    }
    if (char === '\\') return /[bB\d]/.test(source[i++] ?? 'b') ? NaN : 1;
    return char === '^' || char === '$' ? NaN : 1;
  };
  const repeats = (): number => {
    const quantifier = /^(?:([?*+])|\{(\d+)(,(\d*))?\})/.exec(source.slice(i));
    if (!quantifier) return 1;
    i += quantifier[0].length;
    if (source[i] === '?') i++;
    const [, symbol, least, range, most] = quantifier;
    if (symbol) return symbol === '?' ? 1 : Infinity;
    return range === undefined ? Number(least) : most ? Number(most) : Infinity;
  };
  const longest = alternatives();
  return i === source.length && Number.isFinite(longest) ? longest : undefined;
}
