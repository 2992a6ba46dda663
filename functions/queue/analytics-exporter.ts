import * as v from 'valibot';
import { AnalyticsMessage } from '../../shared/analytics/schedule.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { analyticsSchedule } from '../../shared/adapters/wiring/analytics-schedule.js';

/** AnalyticsQueue consumer: a tenant's daily run writes the day before as Parquet once (claimed), and parks the next. */
export const handler = queueHandler({ log: 'Analytics', outcomes: 'AnalyticsDays' }, (record) =>
  analyticsSchedule.handle(v.parse(AnalyticsMessage, JSON.parse(record.body))),
);
