import { queryString } from '../paging.js';

/**
 * The media type a request prefers of those offered, by its `Accept` header's quality values (RFC 9110 §12.5.1);
 * the first offered wins a tie, and when the header is absent or accepts none of them.
 */
export function preferredType<T extends string>(accept: string | undefined, offered: readonly [T, ...T[]]): T {
  const ranges = (accept ?? '').split(',').flatMap((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    if (!range) return [];
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const quality = q ? Number(q.slice(2)) : 1;
    return Number.isFinite(quality) ? [{ range: range.trim(), quality }] : [];
  });
  const qualityOf = (type: string) => {
    const [major] = type.split('/');
    const match =
      ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`) ?? ranges.find((r) => r.range === '*/*');
    return match?.quality ?? 0;
  };
  let best = offered[0];
  for (const type of offered) if (qualityOf(type) > qualityOf(best)) best = type;
  return best;
}

/**
 * A page of a list as JSON, or as CSV when `Accept` prefers it, with a relative `Link` to its next page (the same
 * path and query, its cursor: never a credential, which travels in a header).
 */
export function listPageReply(
  accept: string | undefined,
  page: { body: { next_cursor: string | null }; csv: () => string },
  query: Record<string, string | number | undefined>,
) {
  const next = page.body.next_cursor;
  const headers: Record<string, string> = next ? { link: `<${queryString({ ...query, cursor: next })}>; rel="next"` } : {};
  if (preferredType(accept, ['application/json', CSV_MEDIA]) === CSV_MEDIA)
    return { status: 200, text: page.csv(), headers: { ...headers, 'content-type': `${CSV_MEDIA}; charset=utf-8` } };
  return { status: 200, body: page.body, headers };
}

export const CSV_MEDIA = 'text/csv';
