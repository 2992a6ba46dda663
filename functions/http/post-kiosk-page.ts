import { kioskPage } from '../../shared/adapters/wiring/in-store.js';
import { ENTRY_FORM } from '../../shared/in-store/qr-schema.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { submitKioskPage } from '../../shared/in-store/kiosk.js';

export const contract: PageContract = {
  anonymous: true,
  page: true,
  form: ENTRY_FORM,
  responses: {
    303: { description: 'Answer recorded as a transaction of source `kiosk`: go to the thanks' },
    400: { description: 'The form again, with what is wrong' },
    401: { description: "No registered kiosk's token in the tablet's cookie (HTML page)" },
    429: { description: 'Too many answers from this kiosk in its 30 seconds, or past its daily cap (HTML page)', headers: ['Retry-After'] },
    ...PAGE_RESPONSES,
    410: { description: 'A revoked kiosk, or one no longer in use (its store or employee): nothing is recorded (HTML page)' },
  },
};

export const handler = pageHandler(({ form, languages, cookies, address }) =>
  submitKioskPage({ posted: form, ports: kioskPage, languages, request: { cookies, address } }),
);
