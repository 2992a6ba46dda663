import { signedInPage } from '../../shared/http/workspace.js';
import { inStorePage } from '../../shared/adapters/wiring/in-store.js';
import { ENV } from '../../shared/config.js';
import { configuredSecret, loadSecrets } from '../../shared/adapters/secrets.js';

// The codes are signed with the survey secret; the shown-once cookie is sealed with the cursor secret.
const page = inStorePage(await configuredSecret(ENV.surveySecret));
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description:
        "A store's QR code poster to print (query: store, journey, employee, size a4 or a6) and the tenant's kiosks with the form to register one; a new kiosk's address once",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, cookies, session, user }) =>
  page.showInStore({ tenantId: session.tenantId, user: await user(), base, query, form, shownOnce: cookies.shownOnce }),
);
