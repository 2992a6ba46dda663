import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { ReportBody, ResultsRouteQuery } from '../../shared/results/schema.js';
import { resultsService, themeResults } from '../../shared/adapters/wiring/results.js';
import { ThemeReportBody } from '../../shared/themes/report.js';
import { DriversReportBody } from '../../shared/results/drivers-report.js';

/**
 * One journey's results between two days (UTC, both included), from counters kept as answers arrive: by store,
 * employee, journey, class, day, week or month, split by source; its comments' themes (`theme`, with `interval`: each
 * theme's line); or the items that move the score (`driver`). A token limited to some stores sees those only.
 */
export const contract = {
  user: 'any' as const,
  query: ResultsRouteQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer(
      'The report: one row per group, periods in time order, stores and employees ranked by their interval (too few answers: after, unranked), other groups best first; themes by how much they drag the score down; drivers most important first',
      v.union([ReportBody, ThemeReportBody, DriversReportBody]),
    ),
    401: problem('No valid user token'),
    404: problem('A store or employee the token may not see'),
    422: problem(
      'Invalid parameters (an unknown journey, region or source, a range over 400 days or backwards, an employee or a source with group_by=theme, an interval with any other grouping, a journey that rates no items or a source with group_by=driver)',
    ),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user }) => ({
  status: 200,
  body:
    query.group_by === 'theme'
      ? await themeResults.report(tenantId, query, user())
      : query.group_by === 'driver'
        ? await resultsService.drivers(tenantId, query, user())
        : await resultsService.report(tenantId, { ...query, group_by: query.group_by }, user()),
}));
