import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { SocialMessagingClient } from '@aws-sdk/client-socialmessaging';
import { AlertNotSent, type CaseAlerts } from '../cases/ports.js';
import { whatsAppCommand } from './whatsapp-message.js';

/** The case alert's provider: SES, as the survey e-mails (only the case queue's consumer bundles it). */
let ses: SESv2Client | undefined;
let social: SocialMessagingClient | undefined;

/** An error the provider answered means it took nothing: AlertNotSent. A timeout may have sent it: thrown as it is. */
function notSent(error: unknown): never {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  // The provider's words may name an address or a number: only the error's name and status are kept.
  if (status !== undefined) throw new AlertNotSent(`${(error as Error).name} (HTTP ${status})`);
  throw error;
}

export const caseAlerts: CaseAlerts = {
  /**
   * One SES message to every manager. An error SES answered (a refusal, throttling, its own failure) means it took
   * nothing: AlertNotSent, and the claim is given back. A timeout or a lost connection may have sent it: thrown as it is.
   */
  async email(message) {
    try {
      await (ses ??= new SESv2Client({})).send(
        new SendEmailCommand({
          FromEmailAddress: message.from,
          Destination: { ToAddresses: message.to },
          Content: {
            Simple: {
              Subject: { Data: message.subject, Charset: 'UTF-8' },
              Body: { Html: { Data: message.html, Charset: 'UTF-8' }, Text: { Data: message.text, Charset: 'UTF-8' } },
            },
          },
        }),
      );
    } catch (error) {
      notSent(error);
    }
  },

  /** One template message to one manager, through End User Messaging Social (the tenant's WhatsApp sender). */
  async whatsapp(message) {
    try {
      await (social ??= new SocialMessagingClient({})).send(whatsAppCommand(message));
    } catch (error) {
      notSent(error);
    }
  },
};
