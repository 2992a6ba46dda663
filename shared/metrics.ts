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
/** As Powertools decides it: the variable when set, otherwise POWERTOOLS_DEV. */
const disabled = process.env.POWERTOOLS_METRICS_DISABLED !== undefined ? truthy('POWERTOOLS_METRICS_DISABLED') : truthy('POWERTOOLS_DEV');

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

/**
 * Writes what this invocation counted, if anything, and starts the next from nothing. Each line is one EMF document:
 * the metrics' values and the dimensions' values at its root, `_aws` naming them (every count in Count, every line with
 * the `service` dimension, which every log line carries, and its own dimension beside it where it has one).
 */
export function flushMetrics(): void {
  const lines = [...counted.values()];
  counted.clear();
  if (disabled) return;
  const timestamp = Date.now();
  for (const { dimension, counts } of lines) {
    const names = [...counts.keys()];
    logger.info('metrics', {
      _aws: {
        Timestamp: timestamp,
        CloudWatchMetrics: [
          {
            Namespace: NAMESPACE,
            Dimensions: [dimension ? ['service', dimension[0]] : ['service']],
            Metrics: names.map((name) => ({ Name: name, Unit: 'Count' })),
          },
        ],
      },
      ...(dimension ? { [dimension[0]]: dimension[1] } : {}),
      ...Object.fromEntries(counts),
    });
  }
}
