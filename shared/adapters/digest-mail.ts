import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { DigestEmailMessage } from '../digest/sending.js';

let ses: SESv2Client | undefined;

/** One digest e-mail through SES v2, its HTML and text parts and its List-Unsubscribe header. */
export async function sendDigestEmail(message: DigestEmailMessage): Promise<void> {
  await (ses ??= new SESv2Client({})).send(
    new SendEmailCommand({
      FromEmailAddress: message.from,
      Destination: { ToAddresses: [message.to] },
      ConfigurationSetName: process.env.SES_CONFIGURATION_SET || undefined,
      Content: {
        Simple: {
          Subject: { Data: message.subject, Charset: 'UTF-8' },
          Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
          Headers: message.headers.map((h) => ({ Name: h.name, Value: h.value })),
        },
      },
    }),
  );
}
