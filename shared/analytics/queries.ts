import { readFileSync } from 'node:fs';

/**
 * The saved queries the stack gives the Athena workgroup as named queries (infra/constructs/analytics.ts), one SQL file
 * each under queries/, in the SQL both Athena (Trino) and DuckDB read. The tenant is the one parameter, `?`: Athena's
 * console asks for it (a string, `'7'`: the tenant partition is projected as injected, so every query names one), and
 * `npm run analytics` runs the same text with it bound (`forTenant`). Read by the stack and the tests, never by a Lambda.
 */
export const SAVED_QUERIES = {
  npsByStoreAndWeek: { file: 'nps-by-store-and-week', description: 'NPS by store and week (promoters minus detractors, in percent)' },
  detractorThemesByRegion: {
    file: 'detractor-themes-by-region',
    description: "Detractors' themes by region: how many detractor answers matched each theme",
  },
  recoveryRateByOwner: {
    file: 'recovery-rate-by-owner',
    description: "Recovery rate by owner: of each owner's cases with an answered recovery survey, the share recovered",
  },
} as const;
export type SavedQueryId = keyof typeof SAVED_QUERIES;

/** A saved query's SQL, as its file holds it (the tenant a `?`). */
export const savedQuerySql = (id: SavedQueryId): string =>
  readFileSync(new URL(`./queries/${SAVED_QUERIES[id].file}.sql`, import.meta.url), 'utf8').trim();

/** The SQL with its tenant bound, as a string literal: what the console makes of the parameter, for DuckDB. */
export const forTenant = (sql: string, tenantId: number): string => sql.replaceAll('?', `'${tenantId}'`);
