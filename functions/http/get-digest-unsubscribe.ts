import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { pageHandler, type PageContract } from '../../shared/http/page.js';
import { showDigestUnsubscribe } from '../../shared/digest/unsubscribe.js';
import { digestUnsubscribePorts } from '../../shared/adapters/wiring/digest.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    200: { description: "Asks to confirm stopping the user's digests" },
    404: { description: 'Unknown or tampered link (HTML page)' },
  },
};

export const handler = pageHandler(({ token, locale }) =>
  showDigestUnsubscribe(digestUnsubscribePorts, { token, secret: secret(), locale }),
);
