import { afterEach, describe, expect, it, vi } from 'vitest';

/** The metrics module as deployed: metrics enabled, at INFO, written to stdout in embedded metric format. */
async function deployedMetrics(env: Record<string, string | undefined> = {}) {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.stubEnv('POWERTOOLS_DEV', '');
  vi.stubEnv('POWERTOOLS_LOG_LEVEL', 'INFO');
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  vi.resetModules();
  const module = await import('../../shared/metrics.js');
  const raw: string[] = [];
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    raw.push(...String(chunk).split('\n').filter(Boolean));
    return true;
  });
  return { ...module, raw, lines: () => raw.map((line) => JSON.parse(line) as Record<string, any>), stop: () => write.mockRestore() };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** CloudWatch's units (the EMF specification's MetricDefinition.Unit). */
const UNITS = new Set(
  'Seconds Microseconds Milliseconds Bytes Kilobytes Megabytes Gigabytes Terabytes Bits Kilobits Megabits Gigabits Terabits Percent Count Bytes/Second Kilobytes/Second Megabytes/Second Gigabytes/Second Terabytes/Second Bits/Second Kilobits/Second Megabits/Second Gigabits/Second Terabits/Second Count/Second None'.split(
    ' ',
  ),
);

interface Extracted {
  namespace: string;
  name: string;
  unit: string;
  dimensions: Record<string, string>;
  value: number;
}

/**
 * The metrics CloudWatch extracts from one log line, by the embedded metric format's specification: a JSON object
 * whose `_aws` holds a millisecond Timestamp and CloudWatchMetrics directives; each directive's Namespace, its
 * dimension sets (at most 30 names each) naming string members of the root, and its metrics (at most 100) naming
 * number members of the root, with a known unit. Anything that breaks a rule throws, as CloudWatch drops the line.
 */
function extract(line: string): Extracted[] {
  const root = JSON.parse(line) as Record<string, unknown>;
  const aws = root._aws as { Timestamp: unknown; CloudWatchMetrics: unknown };
  if (typeof aws !== 'object' || aws === null) throw new Error('no _aws object');
  if (typeof aws.Timestamp !== 'number' || !Number.isInteger(aws.Timestamp) || Math.abs(aws.Timestamp - Date.now()) > 60_000)
    throw new Error('Timestamp is not now in epoch milliseconds');
  if (!Array.isArray(aws.CloudWatchMetrics)) throw new Error('CloudWatchMetrics is not an array');
  return aws.CloudWatchMetrics.flatMap((directive: { Namespace: unknown; Dimensions: unknown; Metrics: unknown }) => {
    const { Namespace, Dimensions, Metrics } = directive;
    if (typeof Namespace !== 'string' || !/^[\x20-\x7e]{1,255}$/.test(Namespace)) throw new Error('bad Namespace');
    if (!Array.isArray(Dimensions) || !Array.isArray(Metrics) || Metrics.length > 100) throw new Error('bad directive');
    return Metrics.flatMap((metric: { Name: unknown; Unit?: unknown }) => {
      const value = root[metric.Name as string];
      if (typeof metric.Name !== 'string' || typeof value !== 'number') throw new Error(`metric ${String(metric.Name)} has no number`);
      if (metric.Unit !== undefined && !UNITS.has(metric.Unit as string)) throw new Error(`unknown unit ${String(metric.Unit)}`);
      return (Dimensions as string[][]).map((set) => {
        if (!Array.isArray(set) || set.length > 30) throw new Error('bad dimension set');
        const dimensions: Record<string, string> = {};
        for (const name of set) {
          const member = root[name];
          if (typeof member !== 'string') throw new Error(`dimension ${name} is not a string member`);
          dimensions[name] = member;
        }
        return { namespace: Namespace, name: metric.Name as string, unit: (metric.Unit as string) ?? 'None', dimensions, value };
      });
    });
  });
}

const service = 'survey-service';
const namespace = 'SurveyService';

describe('business metrics', () => {
  it('sum a batch of counts into one line, whatever the values of their dimensions, written at the flush', async () => {
    const { count, flushMetrics, lines, stop } = await deployedMetrics();
    for (let i = 0; i < 10; i++) {
      count('TransactionsCreated');
      count('SurveysSuppressed', 'no_contact');
    }
    count('SurveysSuppressed', 'opted_out');
    count('TransactionsRejected', 'unknown_journey', 2);
    expect(lines()).toEqual([]);
    flushMetrics();
    const written = lines();

    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      TransactionsCreated: 10,
      'SurveysSuppressed.no_contact': 10,
      'SurveysSuppressed.opted_out': 1,
      'TransactionsRejected.unknown_journey': 2,
    });
    expect(written[0]!._aws.CloudWatchMetrics[0].Dimensions).toEqual([['service']]);

    // The next invocation starts from nothing.
    flushMetrics();
    stop();
    expect(lines()).toHaveLength(1);
  });

  it('write lines from which CloudWatch extracts each count with its namespace, unit and dimensions', async () => {
    const { count, flushMetrics, raw, stop } = await deployedMetrics();
    count('SurveysSent', 'email');
    count('SurveysSent', 'email');
    count('SurveysSent', 'sms');
    count('SurveyAttemptsSent', '2', 3);
    count('EventDeliveries', 'failed', 4);
    count('TransactionsCreated', undefined, 5);
    count('ConsumerRecordFailures');
    flushMetrics();
    stop();

    // One JSON document, one line, as CloudWatch Logs receives each line as an event.
    expect(raw).toHaveLength(1);
    const extracted = raw.flatMap(extract);
    expect(extracted).toHaveLength(6);
    expect(extracted).toEqual(
      expect.arrayContaining([
        { namespace, name: 'SurveysSent.email', unit: 'Count', dimensions: { service }, value: 2 },
        { namespace, name: 'SurveysSent.sms', unit: 'Count', dimensions: { service }, value: 1 },
        { namespace, name: 'SurveyAttemptsSent.2', unit: 'Count', dimensions: { service }, value: 3 },
        { namespace, name: 'EventDeliveries.failed', unit: 'Count', dimensions: { service }, value: 4 },
        { namespace, name: 'TransactionsCreated', unit: 'Count', dimensions: { service }, value: 5 },
        { namespace, name: 'ConsumerRecordFailures', unit: 'Count', dimensions: { service }, value: 1 },
      ]),
    );
  });

  it('write nothing when there is nothing to count, or when POWERTOOLS_METRICS_DISABLED says so', async () => {
    const enabled = await deployedMetrics();
    enabled.flushMetrics();
    enabled.stop();
    expect(enabled.raw).toEqual([]);

    const disabled = await deployedMetrics({ POWERTOOLS_METRICS_DISABLED: 'true' });
    disabled.count('TransactionsCreated');
    disabled.flushMetrics();
    disabled.stop();
    expect(disabled.raw).toEqual([]);
  });
});
