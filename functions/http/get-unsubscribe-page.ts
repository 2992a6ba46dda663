import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { pageHandler, type PageContract } from '../../shared/http/page.js';
import { showUnsubscribe } from '../../shared/surveys/answer-page.js';
import { surveyPageReads } from '../../shared/adapters/wiring/surveys.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    200: { description: 'Asks to confirm (works after the survey link expired)' },
    404: { description: 'Unknown or tampered link (HTML page)' },
  },
};

export const handler = pageHandler(({ token, locale }) =>
  showUnsubscribe({ token, ports: surveyPageReads, secret: secret(), now: new Date(), requested: locale }),
);
