import { logger } from './logger.js';

/**
 * Business metrics in CloudWatch embedded metric format (EMF): JSON log lines that CloudWatch Logs turns into metrics,
 * with no API call. They are written through the logger, at INFO, rather than by Powertools Metrics, whose module made
 * every function's cold import about 4% slower (measured in the cold-start benchmark); Lambda files a line without a
 * level at INFO anyway, so a function logging above INFO loses its metrics either way. Disabled locally and in tests
 * with POWERTOOLS_METRICS_DISABLED, as Powertools reads it.
 */
export const NAMESPACE = 'SurveyService';

export type MetricName =
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
  | 'CaseDeadlines'
  | 'Digests'
  | 'ScoreDropChecks'
  | 'PersonalCopiesExpired'
  | 'EventDeliveries'
  | 'ChatDeliveries'
  | 'PrivacyRequests'
  | 'Cases'
  | 'AnswerExports'
  | 'Analyses'
  | 'AnalyticsDays';

const TRUTHY = new Set(['1', 'y', 'yes', 't', 'true', 'on']);
const truthy = (name: string) => TRUTHY.has((process.env[name] ?? '').trim().toLowerCase());
/**
 * As Powertools decides it: the variable when set, otherwise POWERTOOLS_DEV. Read at each flush, not at load, so that
 * what a process writes does not depend on the order its modules load in (the benchmark measures the lines as
 * deployed).
 */
const disabled = () =>
  process.env.POWERTOOLS_METRICS_DISABLED !== undefined ? truthy('POWERTOOLS_METRICS_DISABLED') : truthy('POWERTOOLS_DEV');

/** This invocation's counts until its flush, by the metric's name (a dimension's value in it: `SurveysSent.email`). */
const counted = new Map<string, number>();

/**
 * Counts one event, with the value of its dimension where it has one (why a transaction was rejected or a survey not
 * sent, a channel, an outcome). Counts are summed and written once per invocation, in one line: a count with a value is the
 * metric `<name>.<value>` (`SurveysSuppressed.no_contact`, `SurveysSent.email`), so that one EMF document holds every
 * count of a batch (a document gives each dimension one value), and a batch of a hundred records writes one line.
 */
export function count(name: MetricName, dimension?: string, value = 1): void {
  const key = dimension === undefined ? name : `${name}.${dimension}`;
  counted.set(key, (counted.get(key) ?? 0) + value);
}

/**
 * What this invocation counted, as the members of one EMF document (the counts at its root, `_aws` naming them, every
 * count in Count with the `service` dimension, which every log line carries), and starts the next from nothing;
 * undefined when nothing was counted or metrics are disabled. The queue wrapper puts them on its batch's one line.
 */
export function takeMetrics(): Record<string, unknown> | undefined {
  const counts = [...counted];
  counted.clear();
  if (disabled() || !counts.length) return undefined;
  return {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [
        { Namespace: NAMESPACE, Dimensions: [['service']], Metrics: counts.map(([name]) => ({ Name: name, Unit: 'Count' })) },
      ],
    },
    ...Object.fromEntries(counts),
  };
}

/** Writes what this invocation counted, if anything, as one line (`metrics`), and starts the next from nothing. */
export function flushMetrics(): void {
  const metrics = takeMetrics();
  if (metrics) logger.info('metrics', metrics);
}
