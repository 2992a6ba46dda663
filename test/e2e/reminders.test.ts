import { describe, expect, inject, it } from 'vitest';
import { overHttp } from '../support/api.js';
import { outboxOf, emailsOf } from '../support/mailbox.js';

/**
 * Attempts over time through the local stack as a user runs it: the demo tenant's journey `lembrete` sends its
 * WhatsApp attempt at once, and its e-mail reminder a minute later, from the queue's own delay, with no help from
 * the test.
 */
const api = overHttp('public');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];

async function waitFor<T>(read: () => Promise<T | undefined>, seconds: number): Promise<{ value: T; after: number }> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value !== undefined) return { value, after: (Date.now() - started) / 1000 };
    if (Date.now() - started > seconds * 1000) throw new Error(`nothing after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('journey lembrete on the local stack', () => {
  it(
    'puts the WhatsApp message in the outbox at once and the e-mail reminder in the mailbox about a minute later',
    { timeout: 150_000 },
    async () => {
      const stamp = Date.now();
      const phone = `+55119${String(stamp % 10_000_000).padStart(7, '0')}`;
      const email = `lembrete-${stamp}@example.com`;
      const res = await api({
        method: 'POST',
        path: '/v2/transactions',
        key: 'local-dev-api-key',
        body: {
          store: { id: 1 },
          employee: { id: 1 },
          customer: { externalId: `L-${stamp}`, name: 'Rita Alves', phone, email },
          transaction: { journeySlug: 'lembrete' },
        },
      });
      expect(res.status, res.text).toBe(201);
      const whatsapp = await waitFor(async () => {
        const messages = await outboxOf<{ channel: string; to: string }>(outboxUrl);
        return messages.find((m) => m.to === phone);
      }, 20);
      expect(whatsapp.value.channel).toBe('whatsapp');
      expect(whatsapp.after).toBeLessThan(20);
      const mail = await waitFor(async () => {
        const emails = await emailsOf<{ destination: { to: string[] }; subject: string }>(sesUrl);
        return emails.find((e) => e.destination.to.includes(email));
      }, 120);
      // A minute after the WhatsApp message was sent, give or take the queue's and the poller's own seconds.
      expect(whatsapp.after + mail.after).toBeGreaterThan(55);
      expect(mail.value.subject).toContain('Café Aurora');
    },
  );
});
