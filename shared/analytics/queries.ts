import { readFileSync } from 'node:fs';

/** A saved query's parameter: the tenant (every query's first), or a region id (NULL: every region). */
export type SavedQueryParam = 'tenant' | 'region';

/**
 * The saved queries the stack gives the Athena workgroup as named queries (infra/constructs/analytics.ts), one SQL file
 * each under queries/, in the SQL both Athena (Trino) and DuckDB read. Their parameters are `?`, in the order `params`
 * lists them: Athena's console asks for each (the tenant a string, `'7'`: the tenant partition is projected as
 * injected, so every query names one; a region an id, or NULL), and `npm run analytics -- --query <file>` binds them
 * (`savedQueryValues`). Read by the stack, the command and the tests, never by a Lambda.
 */
export const SAVED_QUERIES = {
  npsByStoreAndWeek: {
    file: 'nps-by-store-and-week',
    description: 'NPS by store and week (promoters minus detractors, in percent)',
    params: ['tenant'],
  },
  detractorThemesByRegion: {
    file: 'detractor-themes-by-region',
    description: "Detractors' themes by region: how many detractor answers matched each theme (one region's, or every region's: NULL)",
    params: ['tenant', 'region'],
  },
  recoveryRateByOwner: {
    file: 'recovery-rate-by-owner',
    description: "Recovery rate by owner: of each owner's cases with an answered recovery survey, the share recovered",
    params: ['tenant'],
  },
} as const satisfies Record<string, { file: string; description: string; params: readonly SavedQueryParam[] }>;
export type SavedQueryId = keyof typeof SAVED_QUERIES;

/** A saved query's SQL, as its file holds it (its parameters `?`). */
export const savedQuerySql = (id: SavedQueryId): string =>
  readFileSync(new URL(`./queries/${SAVED_QUERIES[id].file}.sql`, import.meta.url), 'utf8').trim();

/** The saved query of a file's name (`detractor-themes-by-region`), as the command takes it. */
export const savedQueryOfFile = (file: string): SavedQueryId | undefined =>
  (Object.keys(SAVED_QUERIES) as SavedQueryId[]).find((id) => SAVED_QUERIES[id].file === file);

/** The values of a saved query's `?`, in order: the tenant as Athena's console gives it (a string), a region or null. */
export const savedQueryValues = (id: SavedQueryId, tenantId: number, given: { region?: number | undefined }): (string | number | null)[] =>
  SAVED_QUERIES[id].params.map((param: SavedQueryParam) => (param === 'tenant' ? String(tenantId) : (given.region ?? null)));
