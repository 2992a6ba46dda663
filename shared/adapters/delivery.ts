import { createHash } from 'node:crypto';
import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { SendWhatsAppMessageCommand, SocialMessagingClient } from '@aws-sdk/client-socialmessaging';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import type { Channel } from '../surveys/dispatch.js';
import {
  DeliveryRefused,
  type AttemptKey,
  type AttemptStore,
  type Claim,
  type DeliveryPorts,
  type Reachability,
  type Senders,
  type StoreNames,
} from '../surveys/ports.js';
import { batchGet, db, isConditionFailure, type Item } from './dynamodb.js';

// ---- Attempts: the survey map of the transaction item ------------------------------------------------------------

const names = {
  '#status': 'status',
  '#survey': 'survey',
  '#sstatus': 'status',
  '#attempt': 'attempt_id',
  '#claimed': 'claimed_until',
};

export const attemptStore: AttemptStore = {
  async claim(key, now, leaseSeconds): Promise<Claim> {
    const { client, tableName } = db();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    try {
      const { Attributes } = await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.transaction(key.tenantId, key.transactionId),
          UpdateExpression: 'SET #survey.#claimed = :until',
          ConditionExpression:
            '#status = :created AND #survey.#attempt = :attempt AND #survey.#sstatus = :scheduled AND ' +
            '(attribute_not_exists(#survey.#claimed) OR #survey.#claimed < :now)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: {
            ':until': nowSeconds + leaseSeconds,
            ':now': nowSeconds,
            ':created': 'created',
            ':attempt': key.attemptId,
            ':scheduled': 'scheduled',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return claimed(key, Attributes!);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const { Item: item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.transaction(key.tenantId, key.transactionId), ConsistentRead: true }),
    );
    const survey = item?.survey as { status?: string; attempt_id?: number } | undefined;
    if (!item || item.status !== 'created' || survey?.attempt_id !== key.attemptId) return { status: 'missing' };
    return survey.status === 'scheduled' ? { status: 'busy' } : { status: 'done' };
  },

  async markSent(key, sent) {
    const values = { ':attempt': key.attemptId, ':sent_at': sent.at.toISOString(), ':message_id': sent.messageId };
    const sentNames = { '#survey': 'survey', '#attempt': 'attempt_id', '#sent_at': 'sent_at', '#message_id': 'message_id' };
    const written = await update(key, {
      UpdateExpression:
        'SET #survey.#sstatus = :sent, #survey.#sent_at = :sent_at, #survey.#message_id = :message_id REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
      ExpressionAttributeNames: { ...sentNames, '#sstatus': 'status', '#claimed': 'claimed_until' },
      ExpressionAttributeValues: { ...values, ':sent': 'sent', ':scheduled': 'scheduled' },
    });
    // Answered while it was being sent (the chatbot was quicker): keep the answer, note the message.
    if (!written)
      await update(key, {
        UpdateExpression: 'SET #survey.#sent_at = :sent_at, #survey.#message_id = :message_id',
        ConditionExpression: '#survey.#attempt = :attempt',
        ExpressionAttributeNames: sentNames,
        ExpressionAttributeValues: values,
      });
  },

  async markFailed(key, failure) {
    await update(key, {
      UpdateExpression: 'SET #survey.#sstatus = :failed, #survey.#reason = :reason, #survey.#detail = :detail REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt AND #survey.#sstatus = :scheduled',
      ExpressionAttributeNames: {
        '#survey': 'survey',
        '#sstatus': 'status',
        '#attempt': 'attempt_id',
        '#reason': 'reason',
        '#detail': 'detail',
        '#claimed': 'claimed_until',
      },
      ExpressionAttributeValues: {
        ':failed': 'failed',
        ':reason': failure.reason,
        ':detail': failure.detail.slice(0, 500),
        ':attempt': key.attemptId,
        ':scheduled': 'scheduled',
      },
    });
  },

  async release(key) {
    await update(key, {
      UpdateExpression: 'REMOVE #survey.#claimed',
      ConditionExpression: '#survey.#attempt = :attempt',
      ExpressionAttributeNames: { '#survey': 'survey', '#attempt': 'attempt_id', '#claimed': 'claimed_until' },
      ExpressionAttributeValues: { ':attempt': key.attemptId },
    });
  },
};

function claimed(key: AttemptKey, item: Item): Claim {
  const survey = item.survey as { channel: Channel };
  return {
    status: 'claimed',
    attempt: {
      ...key,
      channel: survey.channel,
      journeyId: Number(item.journey_id),
      storeId: Number(item.store_id),
      customerId: Number(item.customer_id),
      contact: String(item.survey_contact),
      customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
    },
  };
}

/** A conditional update of a transaction item; false when its condition failed. */
async function update(
  key: AttemptKey,
  expression: Pick<
    UpdateCommand['input'],
    'UpdateExpression' | 'ConditionExpression' | 'ExpressionAttributeNames' | 'ExpressionAttributeValues'
  >,
): Promise<boolean> {
  const { client, tableName } = db();
  try {
    await client.send(new UpdateCommand({ TableName: tableName, Key: keys.transaction(key.tenantId, key.transactionId), ...expression }));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

// ---- Reachability: opt-outs and addresses that bounce -------------------------------------------------------------

export const addressHash = (address: string) => createHash('sha256').update(address.trim().toLowerCase()).digest('base64url');

export const reachability: Reachability = {
  async check(tenantId, customerId, _channel, contact) {
    const customerKey = keys.entity(tenantId, 'CUSTOMER', customerId);
    const suppressedKey = keys.suppressed(tenantId, addressHash(contact));
    const items = await batchGet(db(), [customerKey, suppressedKey]);
    if (items.some((item) => item.pk === customerKey.pk && item.opt_out === true)) return 'opted_out';
    if (items.some((item) => item.pk === suppressedKey.pk)) return 'undeliverable';
    return 'ok';
  },
};

/** Marks an address undeliverable for a tenant: later attempts to it fail, and new transactions skip it. */
export async function suppressAddress(tenantId: number, address: string, reason: 'bounce' | 'complaint', at: Date): Promise<void> {
  const { client, tableName } = db();
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...keys.suppressed(tenantId, addressHash(address)), [TABLE.entityAttribute]: 'SUPPRESSED', reason, at: at.toISOString() },
    }),
  );
}

export const storeNames: StoreNames = {
  async tradeName(tenantId, storeId) {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, 'STORE', storeId) }));
    return typeof Item?.trade_name === 'string' ? Item.trade_name : '';
  },
};

// ---- Providers --------------------------------------------------------------------------------------------------

let ses: SESv2Client | undefined;
let sms: PinpointSMSVoiceV2Client | undefined;
let social: SocialMessagingClient | undefined;

/** The SES configuration set whose event destination reports bounces and complaints (unset locally). */
const configurationSet = () => process.env.SES_CONFIGURATION_SET || undefined;

/** Errors of these names are refusals a retry cannot fix; anything else (throttling, 5xx) is retried. */
const REFUSALS: Record<string, ReadonlySet<string>> = {
  email: new Set([
    'MessageRejected',
    'BadRequestException',
    'MailFromDomainNotVerifiedException',
    'NotFoundException',
    'AccountSuspendedException',
    'SendingPausedException',
  ]),
  sms: new Set(['ValidationException', 'ConflictException', 'ResourceNotFoundException', 'AccessDeniedException']),
  whatsapp: new Set(['ValidationException', 'InvalidParametersException', 'ResourceNotFoundException', 'AccessDeniedByMetaException']),
};

async function refusing<T>(channel: keyof typeof REFUSALS, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    const name = (error as Error).name;
    const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
    if (REFUSALS[channel]!.has(name) && status !== undefined && status < 500)
      throw new DeliveryRefused(`${name}: ${(error as Error).message}`.slice(0, 300));
    throw error;
  }
}

/** Webhook answers that a retry cannot fix: the URL is wrong or the receiver refuses the request itself. */
const PERMANENT_WEBHOOK_STATUSES = new Set([400, 401, 403, 404, 410, 413, 422]);
export const WEBHOOK_TIMEOUT_MS = 5000;

export const senders: Senders = {
  async email(message) {
    const out = await refusing('email', () =>
      (ses ??= new SESv2Client({})).send(
        new SendEmailCommand({
          FromEmailAddress: message.from,
          Destination: { ToAddresses: [message.to] },
          ConfigurationSetName: configurationSet(),
          EmailTags: Object.entries(message.tags).map(([Name, Value]) => ({ Name, Value })),
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
              Headers: message.headers.map((h) => ({ Name: h.name, Value: h.value })),
            },
          },
        }),
      ),
    );
    return { messageId: out.MessageId ?? '' };
  },

  async sms(message) {
    const out = await refusing('sms', () =>
      (sms ??= new PinpointSMSVoiceV2Client({})).send(
        new SendTextMessageCommand({
          DestinationPhoneNumber: message.to,
          OriginationIdentity: message.originationIdentity,
          MessageBody: message.text,
          MessageType: 'TRANSACTIONAL',
        }),
      ),
    );
    return { messageId: out.MessageId ?? '' };
  },

  async whatsapp(message) {
    const body = {
      messaging_product: 'whatsapp',
      to: message.to,
      type: 'template',
      template: {
        name: message.template,
        language: { code: message.language },
        components: [{ type: 'body', parameters: message.parameters.map((text) => ({ type: 'text', text })) }],
      },
    };
    const out = await refusing('whatsapp', () =>
      (social ??= new SocialMessagingClient({})).send(
        new SendWhatsAppMessageCommand({
          originationPhoneNumberId: message.phoneNumberId,
          message: new TextEncoder().encode(JSON.stringify(body)),
          metaApiVersion: 'v20.0',
        }),
      ),
    );
    return { messageId: out.messageId ?? '' };
  },

  async webhook(message) {
    const response = await fetch(message.url, {
      method: 'POST',
      headers: message.headers,
      body: message.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.ok) return { messageId: message.headers['x-survey-event-id'] ?? '' };
    if (PERMANENT_WEBHOOK_STATUSES.has(response.status)) throw new DeliveryRefused(`the chatbot webhook answered ${response.status}`);
    throw new Error(`The chatbot webhook answered ${response.status}.`);
  },
};

/** The adapters survey delivery runs on. */
export const deliveryPorts: DeliveryPorts = { attempts: attemptStore, reachability, stores: storeNames, senders };
