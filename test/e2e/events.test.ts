import { beforeAll, describe, expect, inject, it } from 'vitest';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { overHttp } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf } from '../support/mailbox.js';

/** Through the local stack: an answer's survey.answered event reaches the tenant's endpoint (the outbox), signed. */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const outboxUrl = inject('outboxUrl');
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, webhooks: [{ url: `${outboxUrl}/events/${tenant.tenantId}` }] });
});

describe('events through the local stack', () => {
  it("delivers survey.answered to the tenant's endpoint by the event queue's consumer, with a valid signature", async () => {
    const id = await registerSale(api, tenant.key);
    const answer = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score: 10, classes: [] },
    });
    expect(answer.status).toBe(201);
    let event: { text: string; signatureValid: boolean; eventType?: string } | undefined;
    for (let i = 0; i < 100 && !event; i++) {
      const messages = await outboxOf<{
        channel: string;
        text: string;
        signatureValid: boolean;
        eventType?: string;
      }>(outboxUrl);
      // The sale's survey, which this tenant has no channel to send, fails too (survey.failed): whichever event the
      // consumer delivers first, the answer's is the one looked for.
      event = messages.find((m) => m.channel === 'event' && m.eventType === 'survey.answered' && m.text.includes(`"transaction_id":${id}`));
      if (!event) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(event).toMatchObject({ signatureValid: true, eventType: 'survey.answered' });
    expect(JSON.parse(event!.text).data).toMatchObject({ score: 10, journey: 'loja' });
  });
});
