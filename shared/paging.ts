/** Paging bounds of every list. */
export const PAGING = {
  defaultLimit: 20,
  maxLimit: 100,
  /** `page` without a cursor skips items; beyond this many, callers must walk with `cursor`. */
  maxOffset: 10_000,
  /** A filtered page stops after this many Query calls and hands back a cursor, so each page costs a bounded amount. */
  maxQueriesPerPage: 10,
} as const;

/** The body of every list response. */
export interface ListBody<T> {
  data: T[];
  page: number;
  limit: number;
  next_cursor: string | null;
}

/** What a storage port answers for one page of a list: the records and where the next page starts. */
export interface Found<T> {
  items: T[];
  nextCursor: string | null;
}

/** A query string (`?a=1&b=2`, or '' when empty) of the values given: for the links to a list's next page. */
export function queryString(query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([k, value]): [string, string][] => (value === undefined || value === '' ? [] : [[k, String(value)]])),
  );
  return params.size ? `?${params}` : '';
}
