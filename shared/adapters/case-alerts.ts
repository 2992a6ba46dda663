import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { AlertNotSent, type CaseAlerts } from '../cases/ports.js';

/** The case alert's provider: SES, as the survey e-mails (only the case queue's consumer bundles it). */
let ses: SESv2Client | undefined;

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
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // The provider's words may name an address: only the error's name and status are kept.
      if (status !== undefined) throw new AlertNotSent(`${(error as Error).name} (HTTP ${status})`);
      throw error;
    }
  },
};
