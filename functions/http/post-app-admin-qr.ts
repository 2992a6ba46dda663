import { signedInPage } from '../../shared/http/workspace.js';
import { inStorePage } from '../../shared/adapters/wiring/in-store.js';
import { ENV } from '../../shared/config.js';
import { configuredSecret, loadSecrets } from '../../shared/adapters/secrets.js';

// The page it answers shows a code (the survey secret); a new kiosk's address goes in the shown-once cookie.
const page = inStorePage(await configuredSecret(ENV.surveySecret));
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  form: {
    action: '`register` (a kiosk) or `revoke`',
    name: "register: the kiosk's name",
    store: 'register: the store (its code)',
    journey: 'register: the journey (its slug)',
    employee: 'register: the employee (its code; optional)',
    daily_cap: 'register: the answers it takes a day at most (1 to 10,000)',
    id: 'revoke: the kiosk id',
    confirm: 'revoke: `yes`, the ticked confirmation (refused without it)',
  },
  responses: {
    303: {
      description:
        "Registered: to the page, the tablet's address in a two-minute HttpOnly cookie of that path, shown there once; revoked: back to the page, saying so",
    },
    400: { description: 'The page again, each wrong field named next to its input; nothing changed' },
    403: { description: 'Not a tenant admin, or posted from another site' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  page.saveInStore({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
