import * as v from 'valibot';
import { AnalyticsMessage } from '../../shared/analytics/schedule.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { analyticsSchedule } from '../../shared/adapters/wiring/analytics.js';

/**
 * AnalyticsQueue consumer: a tenant's daily run (parks the next, begins the chain that writes the day before once), or
 * a chain's next link (shared/analytics/chain.ts).
 */
export const handler = queueHandler({ log: 'Analytics', outcomes: 'AnalyticsDays' }, (record) =>
  analyticsSchedule.handle(v.parse(AnalyticsMessage, JSON.parse(record.body))),
);
