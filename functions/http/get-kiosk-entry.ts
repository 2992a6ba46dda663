import { kioskEntry } from '../../shared/adapters/wiring/in-store.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { enterKiosk } from '../../shared/in-store/kiosk.js';

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    303: { description: "The device token kept in the tablet's cookie: go to the kiosk's page, /k" },
    401: { description: 'Not a registered kiosk (HTML page)' },
    ...PAGE_RESPONSES,
    410: { description: 'A revoked kiosk (HTML page)' },
  },
};

export const handler = pageHandler(({ token, languages }) => enterKiosk(token, kioskEntry, languages));
