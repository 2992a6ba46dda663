import { kioskPageReads } from '../../shared/adapters/wiring/in-store.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { showKioskPage } from '../../shared/in-store/kiosk.js';

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    200: { description: "The survey page of the tablet's kiosk, always empty; with `thanks` (a bucket), the thanks, back here after 10 s" },
    401: { description: "No registered kiosk's token in the tablet's cookie (HTML page)" },
    ...PAGE_RESPONSES,
    410: { description: 'A revoked kiosk, or one no longer in use (its store deactivated, its employee gone) (HTML page)' },
  },
};

export const handler = pageHandler(({ query, languages, cookies }) =>
  showKioskPage({ query: { thanks: query.thanks }, ports: kioskPageReads, languages, cookies }),
);
