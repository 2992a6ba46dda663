/**
 * The saved queries the stack gives the Athena workgroup (infra/constructs/analytics.ts), written in the SQL both
 * Athena (Trino) and DuckDB read, so that `npm run analytics` runs them unchanged locally. Athena's projection of
 * `tenant` is injected: every query names its tenant (an analyst's grant reaches one tenant's prefix only).
 */
export const SAVED_QUERIES = {
  npsByStoreAndWeek: {
    description: 'NPS by store and week: promoters minus detractors, in percent of the answers of NPS journeys',
    sql: (tenantId: number) => `SELECT store_id, date_trunc('week', answered_at) AS week, count(*) AS answers,
  round(100.0 * (sum(CASE WHEN bucket = 'promoter' THEN 1 ELSE 0 END) - sum(CASE WHEN bucket = 'detractor' THEN 1 ELSE 0 END)) / count(*), 1) AS nps
FROM answers
WHERE tenant = ${tenantId} AND bucket IN ('detractor', 'passive', 'promoter')
GROUP BY store_id, date_trunc('week', answered_at)
ORDER BY week, store_id`,
  },
  detractorThemesByStore: {
    description: "Detractors' themes by store: how many detractor answers matched each theme (regions come with issue 49)",
    sql: (tenantId: number) => `SELECT a.store_id, t.theme, count(*) AS answers
FROM answers a
CROSS JOIN UNNEST(a.themes) AS t(theme)
WHERE a.tenant = ${tenantId} AND a.bucket = 'detractor'
GROUP BY a.store_id, t.theme
ORDER BY a.store_id, answers DESC, t.theme`,
  },
} as const;
export type SavedQueryId = keyof typeof SAVED_QUERIES;
