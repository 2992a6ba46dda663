import { configuredSecret } from '../../shared/adapters/secrets.js';
import { qrPage } from '../../shared/adapters/wiring/in-store.js';
import { ENV } from '../../shared/config.js';
import { ENTRY_FORM } from '../../shared/in-store/qr-schema.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { submitQrPage } from '../../shared/in-store/qr-page.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  form: ENTRY_FORM,
  responses: {
    303: { description: 'Answer recorded as a transaction of source `qr`: go to the thanks' },
    400: { description: 'The form again, with what is wrong' },
    409: { description: 'This browser answered this code in the last 12 hours (HTML page)' },
    429: {
      description: 'Too many answers to this code from this address (an IPv6 /64) in this hour (HTML page)',
      headers: ['Retry-After'],
    },
    ...PAGE_RESPONSES,
    410: { description: 'A code retired by a rotation, or no longer in use (its store or employee): nothing recorded (HTML page)' },
  },
};

export const handler = pageHandler(({ token, form, languages, cookies, address }) =>
  submitQrPage({ token, posted: form, ports: qrPage, secret: secret(), languages, request: { cookies, address } }),
);
