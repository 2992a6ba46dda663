import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { pageHandler, type PageContract } from '../../shared/http/page.js';
import { unsubscribe } from '../../shared/surveys/answer-page.js';
import { surveyOptOut } from '../../shared/adapters/wiring/surveys.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  form: { 'List-Unsubscribe': 'One-Click (RFC 8058); any body is accepted' },
  responses: {
    200: { description: 'The customer is opted out of surveys' },
    404: { description: 'Unknown or tampered link (HTML page)' },
  },
};

export const handler = pageHandler(({ token, locale }) =>
  unsubscribe({ token, ports: surveyOptOut, secret: secret(), now: new Date(), requested: locale }),
);
