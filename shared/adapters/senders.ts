import { PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { SocialMessagingClient } from '@aws-sdk/client-socialmessaging';
import { DeliveryRefused, type Senders } from '../surveys/ports.js';
import { WEBHOOK_ID_HEADER } from '../events/signature.js';
import { whatsAppCommand } from './whatsapp-message.js';
import { NotPublicAddress, postToWebhook } from './public-post.js';

/** The providers surveys go out through: SES, End User Messaging SMS and Social, and HTTPS webhooks. */
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
    // The provider's own words are not kept: they may name the address (SES sandbox refusals do), and the detail is
    // stored on the transaction. The error's name says what kind of refusal it was.
    if (REFUSALS[channel]!.has(name) && status !== undefined && status < 500) throw new DeliveryRefused(`${name} (HTTP ${status})`);
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
    const out = await refusing('whatsapp', () => (social ??= new SocialMessagingClient({})).send(whatsAppCommand(message)));
    return { messageId: out.messageId ?? '' };
  },

  async webhook(message) {
    let status: number;
    try {
      status = await postToWebhook(message.url, { body: message.body, headers: message.headers, timeoutMs: WEBHOOK_TIMEOUT_MS });
    } catch (error) {
      // Refused on this deployment whatever it answers: trying again would not change that.
      if (error instanceof NotPublicAddress) throw new DeliveryRefused('the chatbot webhook is not on a public host');
      throw error;
    }
    if (status >= 200 && status < 300) return { messageId: message.headers[WEBHOOK_ID_HEADER] ?? '' };
    if (PERMANENT_WEBHOOK_STATUSES.has(status)) throw new DeliveryRefused(`the chatbot webhook answered ${status}`);
    throw new Error(`The chatbot webhook answered ${status}.`);
  },
};
