import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

/**
 * Business metrics in CloudWatch embedded metric format (written to the log, no API call). Disabled locally and in
 * tests with POWERTOOLS_METRICS_DISABLED.
 */
export const metrics = new Metrics({ namespace: 'SurveyService', serviceName: 'survey-service' });

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
  | 'SurveyAttemptsReleased'
  | 'EventDeliveries';

/** Counts one event, with a `reason` dimension where there is one (a rejected transaction, a survey not sent). */
export function count(name: MetricName, reason?: string, value = 1, dimension = 'reason'): void {
  if (reason === undefined) metrics.addMetric(name, MetricUnit.Count, value);
  else metrics.singleMetric().addDimension(dimension, reason).addMetric(name, MetricUnit.Count, value);
}

/** Writes what this invocation counted, if anything (Powertools warns on every empty flush). */
export function flushMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
