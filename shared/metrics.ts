import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business metrics in CloudWatch embedded metric format (written to the log, no API call). Disabled locally and in
 * tests with POWERTOOLS_METRICS_DISABLED.
 */
const OPTIONS = { namespace: 'SurveyService', serviceName: 'survey-service' };
export const metrics = new Metrics(OPTIONS);

export type MetricName =
  | 'TransactionsAccepted'
  | 'TransactionsCreated'
  | 'TransactionsRejected'
  | 'SurveysDispatched'
  | 'SurveysSuppressed'
  | 'ConsumerRecordFailures'
  | 'SurveysSent'
  | 'SurveysFailed'
  | 'SurveysBounced'
  | 'SurveyAttemptsSent'
  | 'SurveyAttemptsHeld'
  | 'TimersReleased'
  | 'PersonalCopiesExpired'
  | 'EventDeliveries'
  | 'PrivacyRequests'
  | 'Cases';

/** This invocation's counts until its flush: by dimension and value ('' for none), then by metric. */
const counted = new Map<string, { dimension?: [string, string]; counts: Map<MetricName, number> }>();

/**
 * Counts one event, with a `reason` dimension where there is one (a rejected transaction, a survey not sent). Counts
 * are summed and written once per invocation, one line for the plain counts and one per dimension value: a batch of
 * a hundred records writes a few short lines, not one per record.
 */
export function count(name: MetricName, reason?: string, value = 1, dimension = 'reason'): void {
  const key = reason === undefined ? '' : `${dimension}=${reason}`;
  const entry =
    counted.get(key) ??
    counted.set(key, { dimension: reason === undefined ? undefined : [dimension, reason], counts: new Map() }).get(key)!;
  entry.counts.set(name, (entry.counts.get(name) ?? 0) + value);
}

/** Writes what this invocation counted, if anything (Powertools warns on every empty flush). */
export function flushMetrics(): void {
  for (const { dimension, counts } of counted.values()) {
    const line = dimension ? new Metrics(OPTIONS) : metrics;
    if (dimension) line.addDimension(...dimension);
    for (const [name, total] of counts) line.addMetric(name, MetricUnit.Count, total);
    if (dimension) line.publishStoredMetrics();
  }
  counted.clear();
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
