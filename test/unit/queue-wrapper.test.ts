import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../../infra/local/events.js';

/** The queue wrapper as deployed: metrics on, written to stdout in embedded metric format on the batch's line. */
async function deployedWrapper() {
  vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
  vi.stubEnv('POWERTOOLS_DEV', '');
  vi.resetModules();
  const wrapper = await import('../../shared/queue/handler.js');
  const { logger } = await import('../../shared/logger.js');
  logger.setLogLevel('INFO');
  const lines: Record<string, any>[] = [];
  const capture = (chunk: unknown) => {
    for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(capture);
  vi.spyOn(process.stderr, 'write').mockImplementation(capture);
  return { ...wrapper, lines, logged: () => lines.filter((line) => typeof line.level === 'string') };
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A batch as the event source hands it over: message ids m-0, m-1..., each body a word. */
const batch = (bodies: string[]): SQSEvent =>
  ({
    Records: bodies.map((body, i) => ({
      messageId: `m-${i}`,
      receiptHandle: `r-${i}`,
      body,
      attributes: { ApproximateReceiveCount: '1' },
    })),
  }) as unknown as SQSEvent;

/** A record's outcome is its body; "boom" throws. */
const outcomeOf = async ({ body }: { body: string }) => {
  if (body === 'boom') throw new Error('boom');
  return body;
};

describe('the queue wrapper', () => {
  it('sends back only the records that threw, and writes one line: the counts, with each outcome as a metric in it', async () => {
    const { queueHandler, lines, logged } = await deployedWrapper();
    const handler = queueHandler({ log: 'Test deliveries', outcomes: 'EventDeliveries', failures: 'outcome' }, outcomeOf);

    const answer = await handler(batch(['sent', 'boom', 'sent', 'waiting', 'boom']), lambdaContext('test'));

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-4' }] });
    // The two records that threw are logged as errors by Powertools' processor; the batch writes one INFO line.
    const info = logged().filter((line) => line.level === 'INFO');
    expect(info).toHaveLength(1);
    expect(lines.filter((line) => line._aws)).toHaveLength(1);
    expect(info[0]).toMatchObject({ message: 'Test deliveries', records: 5, sent: 2, waiting: 1, failed: 2 });
    expect(info[0]).toMatchObject({ 'EventDeliveries.sent': 2, 'EventDeliveries.waiting': 1, 'EventDeliveries.failed': 2 });
    expect(info[0]!._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name).sort()).toEqual([
      'EventDeliveries.failed',
      'EventDeliveries.sent',
      'EventDeliveries.waiting',
    ]);
  });

  it('writes one line for a batch whatever it counts, however many values of a dimension', async () => {
    const { queueHandler, lines } = await deployedWrapper();
    const { count } = await import('../../shared/metrics.js');
    const handler = queueHandler({ log: 'Test sends', failures: 'ConsumerRecordFailures' }, async ({ body }) => {
      count('SurveysSent', body);
      count('SurveyAttemptsSent', '1');
      if (body === 'boom') throw new Error('boom');
      return 'sent';
    });

    await handler(batch(['email', 'sms', 'whatsapp', 'email', 'boom']), lambdaContext('test'));

    const written = lines.filter((line) => line.level === 'INFO' || line._aws);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatchObject({
      message: 'Test sends',
      'SurveysSent.email': 2,
      'SurveysSent.sms': 1,
      'SurveysSent.whatsapp': 1,
      'SurveysSent.boom': 1,
      'SurveyAttemptsSent.1': 5,
      ConsumerRecordFailures: 1,
    });
  });

  it('counts failures as ConsumerRecordFailures where a consumer says so, and starts each batch from nothing', async () => {
    const { queueHandler, lines, logged } = await deployedWrapper();
    const handler = queueHandler({ log: 'Test batch', failures: 'ConsumerRecordFailures' }, outcomeOf);

    await handler(batch(['boom', 'sent']), lambdaContext('test'));
    lines.length = 0;
    const answer = await handler(batch(['sent', 'boom', 'boom']), lambdaContext('test'));

    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m-1', 'm-2']);
    expect(logged().find((line) => line.level === 'INFO')).toMatchObject({ message: 'Test batch', records: 3, sent: 1, failed: 2 });
    expect(lines.filter((line) => line._aws).map((line) => line.ConsumerRecordFailures)).toEqual([2]);
    expect(lines.filter((line) => line._aws)[0]?.message).toBe('Test batch');
  });

  it('answers what a whole-batch consumer sends back, beside the records that threw', async () => {
    const { batchQueueHandler, logged } = await deployedWrapper();
    // The consumer sends back, beside the records that threw, the first record that did not.
    const handler = batchQueueHandler({ log: 'Test whole batch' }, async (records, eachRecord) => {
      const failed = await eachRecord(outcomeOf);
      return [...failed, records.find((record) => !failed.includes(record.messageId))!.messageId];
    });

    const answer = await handler(batch(['boom', 'sent', 'sent']), lambdaContext('test'));

    expect(answer.batchItemFailures.map((f) => f.itemIdentifier)).toEqual(['m-0', 'm-1']);
    expect(logged().find((line) => line.level === 'INFO')).toMatchObject({ message: 'Test whole batch', records: 3, sent: 2, failed: 2 });
  });
});
