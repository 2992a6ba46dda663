import { GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '../../shared/queues.js';
import { overHttp } from '../support/api.js';
import { v2Payload } from '../support/transactions.js';

const api = overHttp();
const KEY = 'local-dev-api-key';

async function outcomeOf(requestId: string, until: (status: string) => boolean = (s) => s !== 'pending') {
  for (let i = 0; i < 100; i++) {
    const res = await api({ path: `/v2/transactions/requests/${requestId}`, key: KEY });
    if (until(res.body.status)) return res.body;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`request ${requestId} still pending`);
}

describe('v2 transactions through the local stack (API, queue, consumer)', () => {
  it('are created: post, then poll the outcome', async () => {
    const post = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: KEY,
      body: v2Payload({ ratingItems: [{ classId: 2, score: 5 }] }),
    });
    expect(post.status).toBe(201);
    const outcome = await outcomeOf(post.headers['x-request-id']!);
    expect(outcome).toMatchObject({ status: 'created', errors: [] });
    const transaction = await api({ path: `/public/transaction/${outcome.transactionId}`, key: KEY });
    expect(transaction.body).toMatchObject({ journey_id: 1, rating_items: [{ class_id: 2, score: 5 }] });
    // The stack's dispatcher may already have sent the survey by the time it is read.
    expect(['scheduled', 'sent']).toContain(transaction.body.survey.status);
  });

  it('are rejected with the reasons when a rule refuses them', async () => {
    const post = await api({
      method: 'POST',
      path: '/v2/transactions',
      key: KEY,
      body: v2Payload({ ratingItems: [{ classId: 4, score: 10 }] }),
    });
    const outcome = await outcomeOf(post.headers['x-request-id']!);
    expect(outcome).toMatchObject({ status: 'rejected', transactionId: null, errors: [{ path: 'ratingItems[0].classId' }] });
  });

  it('are not readable by another tenant', async () => {
    const post = await api({ method: 'POST', path: '/v2/transactions', key: KEY, body: v2Payload() });
    const outcome = await outcomeOf(post.headers['x-request-id']!);
    expect((await api({ path: `/public/transaction/${outcome.transactionId}`, key: 'local-dev-api-key-2' })).status).toBe(404);
    expect((await api({ path: `/v2/transactions/requests/${post.headers['x-request-id']}`, key: 'local-dev-api-key-2' })).status).toBe(404);
  });

  it('send a poison message to the dead-letter queue after 5 receives', async () => {
    const sqs = new SQSClient({});
    const queueUrl = process.env[QUEUES.transactions.urlEnv]!;
    const { QueueUrl: dlqUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: `${QUEUES.transactions.name}-dlq` }));
    const marker = `poison-${Date.now()}`;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `{"not":"a transaction message","marker":"${marker}"}` }));

    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1, MessageSystemAttributeNames: ['All'] }),
      );
      found = Messages.some((m) => m.Body?.includes(marker));
    }
    expect(found).toBe(true);
  }, 60_000);
});
