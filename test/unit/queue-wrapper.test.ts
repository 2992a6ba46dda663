import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SQSEvent } from 'aws-lambda';
import { lambdaContext } from '../../infra/local/events.js';

/**
 * The queue wrapper as deployed: metrics on, written to stdout in embedded metric format beside the log lines (they are
 * INFO lines too: `logged` is the others).
 */
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
  return { ...wrapper, lines, logged: () => lines.filter((line) => typeof line.level === 'string' && !line._aws) };
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
  it('sends back only the records that threw, writes one INFO line with the counts, and flushes each outcome as a metric', async () => {
    const { queueHandler, lines, logged } = await deployedWrapper();
    const handler = queueHandler({ log: 'Test deliveries', outcomes: 'EventDeliveries', failures: 'outcome' }, outcomeOf);

    const answer = await handler(batch(['sent', 'boom', 'sent', 'waiting', 'boom']), lambdaContext('test'));

    expect(answer).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-1' }, { itemIdentifier: 'm-4' }] });
    const info = logged().filter((line) => line.level === 'INFO');
    expect(info).toHaveLength(1);
    expect(info[0]).toMatchObject({ message: 'Test deliveries', records: 5, sent: 2, waiting: 1, failed: 2 });
    const metric = (outcome: string) => lines.find((line) => line._aws && line.outcome === outcome)?.EventDeliveries;
    expect([metric('sent'), metric('waiting'), metric('failed')]).toEqual([2, 1, 2]);
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
