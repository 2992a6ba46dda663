import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { pageHandler, type PageContract } from '../../shared/http/page.js';
import { digestUnsubscribe } from '../../shared/digest/unsubscribe.js';
import { digestUnsubscribePorts } from '../../shared/adapters/wiring/digest.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  form: { 'List-Unsubscribe': 'One-Click (RFC 8058); any body is accepted' },
  responses: {
    200: { description: "The user's digest is set to off" },
    404: { description: 'Unknown or tampered link (HTML page)' },
  },
};

export const handler = pageHandler(({ token, locale }) => digestUnsubscribe(digestUnsubscribePorts, { token, secret: secret(), locale }));
