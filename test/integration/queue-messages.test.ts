import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SQSEvent, SQSRecord } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lambdaContext } from '../../infra/local/events.js';
import { logger } from '../../shared/logger.js';

/**
 * Every queue consumer checks its message at the door: a body that is not JSON, or not its queue's shape, goes back to
 * the queue (to the dead-letter queue after the retries) with one error line saying where it is wrong, and no value of
 * it; never a TypeError deep inside, and never a message taken as done. The SES events' consumer reads SNS
 * notifications and drops a malformed one on purpose (test/integration/ses-events.test.ts).
 */
const FOLDER = join(import.meta.dirname, '../../functions/queue');
const CONSUMERS = readdirSync(FOLDER)
  .filter((file) => file.endsWith('.ts') && file !== 'ses-events.ts')
  .map((file) => file.replace(/\.ts$/, ''));

const record = (messageId: string, body: string) =>
  ({ messageId, receiptHandle: messageId, body, attributes: { ApproximateReceiveCount: '1' } }) as unknown as SQSRecord;

/** Not JSON; JSON of the wrong shape (every field of another type, a URL and a phone among the values); an empty object. */
const MALFORMED = [
  record('not-json', 'not json {'),
  record(
    'wrong-types',
    JSON.stringify({ tenantId: 'one', transactionId: [], url: 'https://hooks.example/secret-path', phone: '+5511987654321' }),
  ),
  record('empty', '{}'),
];

afterEach(() => vi.restoreAllMocks());

describe('a malformed message on any queue', () => {
  it.each(CONSUMERS)('%s sends it back to the queue and logs where it is wrong, no value of it', async (consumer) => {
    const errors = vi.spyOn(logger, 'error');
    const { handler } = (await import(`../../functions/queue/${consumer}.ts`)) as {
      handler: (event: SQSEvent, context: ReturnType<typeof lambdaContext>) => Promise<{ batchItemFailures: { itemIdentifier: string }[] }>;
    };

    const answer = await handler({ Records: MALFORMED } as SQSEvent, lambdaContext(consumer));

    expect(answer.batchItemFailures.map((failure) => failure.itemIdentifier).sort()).toEqual(['empty', 'not-json', 'wrong-types']);
    const logged = errors.mock.calls.map(([message, ...rest]) => ({ message: String(message), rest: JSON.stringify(rest) }));
    expect(logged.filter((line) => line.message === 'Malformed message')).toHaveLength(3);
    expect(
      logged.map((line) => line.message),
      'no TypeError deep inside',
    ).not.toContainEqual(expect.stringMatching(/TypeError|Cannot read/));
    expect(JSON.stringify(logged)).not.toMatch(/secret-path|987654321|not json/);
  });
});
