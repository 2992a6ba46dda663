/**
 * A chat endpoint's URL is a credential: whoever holds a Slack or Teams webhook URL posts to the channel. Wherever it
 * is shown back (the configuration, the audit log, the deliveries, the webhooks page) it is masked as API keys are:
 * its scheme and host and its last 4 characters (more, 4 at a time, while two of the tenant's endpoints would read
 * alike). A masked URL put back unchanged names the stored endpoint it masks.
 */
export function maskedUrl(url: string, last = 4): string {
  let origin: string;
  try {
    const parsed = new URL(url);
    origin = `${parsed.protocol}//${parsed.host}`;
  } catch {
    origin = '';
  }
  return `${origin}/…${url.slice(-last)}`;
}

/** The masks of a tenant's endpoints' URLs, in their order: each tells its endpoint from the others. */
export function maskedUrls(urls: readonly string[]): string[] {
  const longest = Math.max(0, ...urls.map((url) => url.length));
  for (let last = 4; ; last += 4) {
    const masks = urls.map((url) => maskedUrl(url, last));
    if (new Set(masks).size === new Set(urls).size || last >= longest) return masks;
  }
}

/** A URL as shown among the tenant's endpoints' `urls`: its mask among theirs, or alone when it is none of them. */
export function maskedAmong(url: string, urls: readonly string[]): string {
  const at = urls.indexOf(url);
  return at >= 0 ? maskedUrls(urls)[at]! : maskedUrl(url);
}

/** `value` with every URL of the tenant's endpoints' `urls` in it (a string, or within a path or a value) masked. */
export function withMaskedUrls<T>(value: T, urls: readonly string[]): T {
  if (value === undefined) return value;
  const unique = [...new Set(urls)];
  const masks = maskedUrls(unique);
  let text = JSON.stringify(value);
  // The longest first, so that a URL that starts another is not masked inside it.
  for (const at of unique.map((_, i) => i).sort((a, b) => unique[b]!.length - unique[a]!.length))
    text = text.split(unique[at]!).join(masks[at]!);
  return JSON.parse(text) as T;
}

/** The stored URL a given one names: itself, or the stored URL whose mask it is. */
export function unmaskedUrl(url: string, stored: readonly string[]): string {
  if (stored.includes(url)) return url;
  const at = maskedUrls(stored).indexOf(url);
  return at >= 0 ? stored[at]! : url;
}
