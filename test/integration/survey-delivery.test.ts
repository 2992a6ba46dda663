import { Webhook } from 'standardwebhooks';
import { GetQueueUrlCommand, ReceiveMessageCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { SNSEvent } from 'aws-lambda';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as dispatcher } from '../../functions/queue/survey-dispatcher.js';
import { handler as sesEvents } from '../../functions/queue/ses-events.js';
import { invoke } from '../../infra/local/invoke.js';
import { putBrand } from '../../shared/adapters/brand-repository.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';
import { ENV, requireEnv } from '../../shared/config.js';
import { QUEUES } from '../../shared/queues.js';
import { CHATBOT_ENDPOINT, webhookSecret } from '../../shared/events/signature.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { outboxOf, emailsTo } from '../support/mailbox.js';

/**
 * Survey delivery against its real counterparts: SES through the SES v2 emulator, SMS and WhatsApp through the real
 * SDK clients to the local outbox, webhooks over HTTP to the outbox. The dispatcher is invoked with the SQS batches
 * the event source would hand it.
 */
const dispatch = usePrivateQueue('surveyDispatch');
const api = inProcess('public');
const pages = inProcess('public');
const [sesUrl, outboxUrl] = [inject('sesUrl'), inject('outboxUrl')];
let tenant: TestTenant;
let unique = 0;

beforeAll(async () => {
  tenant = await newTenant();
  // The brand customers read (the store is Loja Paulista, the sender's name the delivery's).
  await putBrand(tenant.tenantId, { name: 'Mercado Central' });
  await putSettings(tenant.tenantId, {
    ...DEMO_SETTINGS,
    journeys: [
      ...DEMO_SETTINGS.journeys,
      {
        id: 4,
        slug: 'sms',
        indicator: 'nps',
        classes: [],
        channels: ['sms'],
        resurveyWindowDays: null,
        surveyValidityDays: 7,
        handOff: [],
      },
    ],
  });
  await putDelivery(tenant.tenantId, {
    quietHours: null,
    email: { from: 'pesquisa@loja.example', name: 'Loja Exemplo' },
    sms: { originationIdentity: '+5511900000001' },
    whatsapp: { phoneNumberId: 'pn-test', template: 'pesquisa_satisfacao', language: 'pt_BR' },
    chatbot: { url: `${outboxUrl}/webhooks/${tenant.tenantId}` },
  });
});

/** A phone no other test uses: the outbox's faults and messages are told apart by destination. */
const newPhone = () => `+55119${String(Date.now() % 10_000_000).padStart(7, '0')}${unique++ % 10}`.slice(0, 14);

/** Registers a transaction (legacy, synchronous) and returns its id and the dispatch message it queued. */
async function transaction(journey: string, customer: Record<string, unknown>, key = tenant.key) {
  const res = await api({
    method: 'POST',
    path: '/public/transaction',
    key,
    body: {
      store_id: 1,
      employee_id: 1,
      journey,
      ...(customer.customer_id ? {} : { customer_integration: `C-${Date.now()}-${unique++}` }),
      ...customer,
    },
  });
  expect(res.status, res.text).toBe(201);
  const [message] = await dispatch.drain();
  expect(message, 'a dispatch message').toBeDefined();
  return { id: res.body.id as number, message: message! };
}

async function deliver(bodies: unknown[], receiveCount = 1): Promise<string[]> {
  const response = await invoke('surveyDispatcher', dispatcher, sqsEvent(bodies, { receiveCount, queue: 'SurveyDispatchQueue' }));
  return response.batchItemFailures.map((f) => f.itemIdentifier);
}

const survey = async (id: number) => (await api({ path: `/public/transaction/${id}`, key: tenant.key })).body.survey;
const mailTo = (address: string) => emailsTo<EmulatedEmail>(sesUrl, address);
const outboxTo = async (to: string) => (await outboxOf<OutboxMessage>(outboxUrl)).filter((m) => m.to === to);
const arm = (fault: { channel: string; to: string; status: number; count: number }) =>
  fetch(`${outboxUrl}/faults`, { method: 'POST', body: JSON.stringify(fault) });

interface EmulatedEmail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { html?: string; text?: string };
  headers?: { name: string; value: string }[];
}
interface OutboxMessage {
  channel: string;
  to: string;
  text: string;
  link: string | null;
  transactionId: number | null;
  attemptId: number | null;
  signatureValid: boolean | null;
  headers?: Record<string, string>;
}

describe('survey delivery', () => {
  it('e-mail: SES gets a pt-BR message with a button per score, the plain link and one-click unsubscribe; the attempt is sent', async () => {
    const email = `maria-${Date.now()}@example.com`;
    const { id, message } = await transaction('ecommerce', { name: 'Maria Silva', email });
    expect(await deliver([message])).toEqual([]);

    const [mail, ...more] = await mailTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.from).toBe('"Loja Exemplo" <pesquisa@loja.example>');
    expect(mail!.subject).toBe('Como foi sua experiência com Mercado Central?');
    expect(mail!.body.text).toContain('Olá, Maria!');
    const link = /(http\S+\/s\/[\w-]{44})/.exec(mail!.body.text!)![1]!;
    for (let score = 1; score <= 5; score++) expect(mail!.body.html).toContain(`${link}?score=${score}"`);
    expect(mail!.headers).toEqual(
      expect.arrayContaining([
        { name: 'List-Unsubscribe', value: `<${link}/unsubscribe>` },
        { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
      ]),
    );
    expect(link.startsWith(requireEnv(ENV.surveyBaseUrl))).toBe(true);
    expect(await survey(id)).toMatchObject({ status: 'sent', channel: 'email', message_id: mail!.messageId, sent_at: expect.any(String) });

    // The link opens this attempt's page.
    const page = await pages({ path: new URL(link).pathname });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Mercado Central');
  });

  it("e-mail: the From carries the brand's sender name, RFC 2047 encoded when it is not ASCII", async () => {
    // A tenant of its own: the dispatcher keeps a tenant's settings for a minute, and this one's brand differs.
    const branded = await newTenant();
    await putDelivery(branded.tenantId, { quietHours: null, email: { from: 'pesquisa@aurora.example', name: 'Not this one' } });
    await putBrand(branded.tenantId, { name: 'Café Aurora', senderName: 'Café Aurora – Pesquisa' });
    const email = `brand-${Date.now()}@example.com`;
    const { message } = await transaction('ecommerce', { name: 'Rita', email }, branded.key);
    expect(await deliver([message])).toEqual([]);

    const [mail] = await mailTo(email);
    const encoded = `=?UTF-8?B?${Buffer.from('Café Aurora – Pesquisa').toString('base64')}?=`;
    expect(mail!.from).toBe(`${encoded} <pesquisa@aurora.example>`);
    expect(mail!.subject).not.toMatch(/Default (store|employee)/);
  });

  it('sends once when the message is redelivered, retried in a batch, or comes twice in one batch', async () => {
    const email = `twice-${Date.now()}@example.com`;
    const { message } = await transaction('ecommerce', { name: 'Ana', email });
    // Two copies at once: one claims the attempt; the other finds it held and goes back to the queue, or, when the first
    // has already finished (a loaded machine runs them one after the other), finds it sent and is done.
    expect((await deliver([message, message])).length).toBeLessThanOrEqual(1);
    expect(await deliver([message], 2)).toEqual([]);
    expect(await deliver([message, message, message], 3)).toEqual([]);
    expect(await mailTo(email)).toHaveLength(1);
  });

  it('whatsapp: the tenant template, its language and the link as a parameter, through the real SDK client', async () => {
    const phone = newPhone();
    const { id, message } = await transaction('loja', { name: 'João Souza', phone });
    expect(await deliver([message])).toEqual([]);
    const [sent, ...more] = await outboxTo(phone);
    expect(more).toHaveLength(0);
    expect(sent).toMatchObject({ channel: 'whatsapp', transactionId: id, attemptId: 1, signatureValid: null });
    expect(sent!.text).toMatch(/^João \| Mercado Central \| http\S+\/s\/[\w-]{44}$/);
    expect(await survey(id)).toMatchObject({ status: 'sent', channel: 'whatsapp', message_id: expect.stringMatching(/^wamid\./) });
  });

  it('sms: one GSM-7 segment with the link', async () => {
    const phone = newPhone();
    const { id, message } = await transaction('sms', { name: 'Zé', phone });
    expect(await deliver([message])).toEqual([]);
    const [sent] = await outboxTo(phone);
    expect(sent!.channel).toBe('sms');
    expect(sent!.text.length).toBeLessThanOrEqual(160);
    expect(sent!.link).toMatch(/\/s\/[\w-]{44}$/);
    expect(await survey(id)).toMatchObject({ status: 'sent', channel: 'sms' });
  });

  it('retries a throttled send through the queue, then sends once', async () => {
    const phone = newPhone();
    const { id, message } = await transaction('loja', { name: 'Lia', phone });
    // The SDK retries a throttled call three times by itself; the queue retries what is still throttled after that.
    await arm({ channel: 'whatsapp', to: phone, status: 429, count: 3 });
    expect(await deliver([message])).toEqual(['m-0']);
    expect(await survey(id)).toMatchObject({ status: 'scheduled' });
    expect(await deliver([message], 2)).toEqual([]);
    expect(await outboxTo(phone)).toHaveLength(1);
    expect(await survey(id)).toMatchObject({ status: 'sent' });
  });

  it('fails an attempt whose contact the provider refuses, with its reason, and does not retry it', async () => {
    const phone = newPhone();
    const { id, message } = await transaction('sms', { name: 'Rui', phone });
    await arm({ channel: 'sms', to: phone, status: 400, count: 5 });
    expect(await deliver([message])).toEqual([]);
    expect(await survey(id)).toMatchObject({ status: 'failed', reason: 'refused', detail: 'ValidationException (HTTP 400)' });
    // The provider's own words named the number: they are not kept (the transaction's detail outlives erasure otherwise).
    expect(JSON.stringify(await survey(id))).not.toContain(phone.slice(-8));
    expect(await deliver([message], 2)).toEqual([]);
    expect(await outboxTo(phone)).toHaveLength(0);
  });

  it("hands the journey's whatsapp attempt to the tenant's chatbot, signed so that the receiver's Standard Webhooks library verifies it", async () => {
    const phone = newPhone();
    const { id, message } = await transaction('atendimento', { name: 'Bia Lopes', phone });
    expect(await deliver([message])).toEqual([]);
    const [hook, ...more] = await outboxTo(phone);
    expect(more).toHaveLength(0);
    expect(hook!.channel).toBe('webhook');
    expect(JSON.parse(hook!.text)).toEqual({
      transactionId: id,
      attemptId: 1,
      journey: 'atendimento',
      source: 'whatsapp',
      customerFirstName: 'Bia',
      phone,
    });
    expect(hook!.signatureValid).toBe(true);
    const secret = webhookSecret({
      rootSecret: requireEnv(ENV.surveySecret),
      tenantId: tenant.tenantId,
      endpoint: CHATBOT_ENDPOINT,
      generation: 1,
    });
    expect(new Webhook(secret).verify(hook!.text, hook!.headers!)).toMatchObject({ transactionId: id });
    expect(await survey(id)).toMatchObject({ status: 'sent', channel: 'whatsapp' });
  });

  it('retries a webhook the chatbot answers with a 5xx', async () => {
    const phone = newPhone();
    const { message } = await transaction('atendimento', { name: 'Caio', phone });
    await arm({ channel: 'webhook', to: phone, status: 503, count: 1 });
    expect(await deliver([message])).toEqual(['m-0']);
    expect(await deliver([message], 2)).toEqual([]);
    expect((await outboxTo(phone)).filter((m) => m.signatureValid)).toHaveLength(1);
  });

  it('fails a message that is not a dispatch message, so that it reaches the dead-letter queue', async () => {
    expect(await deliver(['{"not":"a dispatch message"}', 'not json'])).toEqual(['m-0', 'm-1']);
  });

  it('a permanent bounce (AWS sample event) makes the address undeliverable; a complaint opts the customer out', async () => {
    const bounced = `bounce-${Date.now()}@example.com`;
    const first = await transaction('ecommerce', { name: 'Eva', email: bounced, transaction_id: `B-${Date.now()}` });
    await deliver([first.message]);
    await invoke('sesEvents', sesEvents, snsOf(sesSample('Bounce', bounced, tenant.tenantId, 0)));
    const second = await transaction('ecommerce', { name: 'Eva', email: bounced });
    expect(await deliver([second.message])).toEqual([]);
    expect(await survey(second.id)).toMatchObject({ status: 'failed', reason: 'undeliverable' });
    expect(await mailTo(bounced)).toHaveLength(1);

    const complainer = `complaint-${Date.now()}@example.com`;
    const created = await api({ method: 'POST', path: '/public/customer', key: tenant.key, body: { name: 'Léo', email: complainer } });
    const third = await transaction('ecommerce', { customer_id: created.body.id });
    await deliver([third.message]);
    await invoke('sesEvents', sesEvents, snsOf(sesSample('Complaint', complainer, tenant.tenantId, created.body.id)));
    expect((await api({ path: `/public/customer/${created.body.id}`, key: tenant.key })).body.opt_out).toBe(true);
    // Later transactions of that customer are not surveyed, and say why.
    const later = await api({
      method: 'POST',
      path: '/public/transaction',
      key: tenant.key,
      body: { store_id: 1, employee_id: 1, customer_id: created.body.id, journey: 'ecommerce' },
    });
    expect(later.body.survey).toMatchObject({ status: 'not_sent', reason: 'opted_out' });
  });
});

describe('the local stack', () => {
  it('sends a poison dispatch message to the dead-letter queue after 5 receives', async () => {
    const sqs = new SQSClient({});
    const { QueueUrl: queueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: QUEUES.surveyDispatch.name }));
    const { QueueUrl: dlqUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: `${QUEUES.surveyDispatch.name}-dlq` }));
    const marker = `poison-${Date.now()}`;
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: `{"not":"a dispatch message","marker":"${marker}"}` }));
    let found = false;
    for (let i = 0; i < 40 && !found; i++) {
      const { Messages = [] } = await sqs.send(
        new ReceiveMessageCommand({ QueueUrl: dlqUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
      );
      found = Messages.some((m) => m.Body?.includes(marker));
    }
    expect(found).toBe(true);
  }, 60_000);
});

/**
 * An SES event record as AWS documents it ("Examples of event data that Amazon SES publishes to Amazon SNS"), with
 * the tags our e-mails carry.
 */
function sesSample(type: 'Bounce' | 'Complaint', address: string, tenantId: number, customerId: number) {
  const mail = {
    timestamp: '2017-08-05T00:40:02.012Z',
    source: 'Sender Name <sender@example.com>',
    sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
    sendingAccountId: '123456789012',
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    destination: [address],
    headersTruncated: false,
    tags: {
      'ses:configuration-set': ['ConfigSet'],
      'ses:source-ip': ['192.0.2.0'],
      tenant: [String(tenantId)],
      customer: [String(customerId)],
      transaction: ['1'],
      attempt: ['1'],
    },
  };
  return type === 'Bounce'
    ? {
        eventType: 'Bounce',
        bounce: {
          bounceType: 'Permanent',
          bounceSubType: 'General',
          bouncedRecipients: [{ emailAddress: address, action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' }],
          timestamp: '2017-08-05T00:41:02.669Z',
          feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
          reportingMTA: 'dsn; mta.example.com',
        },
        mail,
      }
    : {
        eventType: 'Complaint',
        complaint: {
          complainedRecipients: [{ emailAddress: address }],
          timestamp: '2017-08-05T00:41:02.669Z',
          feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
          userAgent: 'Mozilla/5.0 (Windows NT 6.1; WOW64) AppleWebKit/537.36',
          complaintFeedbackType: 'abuse',
          arrivalDate: '2017-08-05T00:41:02.669Z',
        },
        mail,
      };
}

const snsOf = (message: unknown): SNSEvent => ({
  Records: [
    {
      EventSource: 'aws:sns',
      EventVersion: '1.0',
      EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:SurveyEmailEvents:1',
      Sns: {
        Type: 'Notification',
        MessageId: '95df01b4-ee98-5cb9-9903-4c221d41eb5e',
        TopicArn: 'arn:aws:sns:us-east-1:123456789012:SurveyEmailEvents',
        Subject: 'Amazon SES Email Event Notification',
        Message: JSON.stringify(message),
        Timestamp: '2017-08-05T00:41:02.669Z',
        SignatureVersion: '1',
        Signature: 'EXAMPLE',
        SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-EXAMPLE.pem',
        UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
        MessageAttributes: {},
      },
    },
  ],
});
