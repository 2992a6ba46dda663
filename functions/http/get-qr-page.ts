import { configuredSecret } from '../../shared/adapters/secrets.js';
import { qrPageReads } from '../../shared/adapters/wiring/in-store.js';
import { ENV } from '../../shared/config.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { showQrPage } from '../../shared/in-store/qr-page.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    200: { description: "The survey page of the code's journey, empty (nothing is recorded); thanks with `thanks` (a bucket)" },
    409: { description: 'This browser answered this code in the last 12 hours: a page saying so, not the form' },
    ...PAGE_RESPONSES,
    410: { description: 'A code retired by a rotation, or no longer in use (its store deactivated, its employee gone) (HTML page)' },
  },
};

export const handler = pageHandler(({ token, query, languages, cookies }) =>
  showQrPage({ token, query: { thanks: query.thanks }, ports: qrPageReads, secret: secret(), languages, cookies }),
);
