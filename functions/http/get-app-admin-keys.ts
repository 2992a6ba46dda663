import { signedInPage } from '../../shared/http/workspace.js';
import { adminKeysPage } from '../../shared/adapters/wiring/access.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description:
        "The tenant's API keys (name, scope, expiry, last use; never a value) and the form to issue one; after an issue, the new key's value once (its cookie cleared)",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, cookies, session, user }) =>
  adminKeysPage.showKeys({ tenantId: session.tenantId, user: await user(), base, query, form, shownOnce: cookies.shownOnce }),
);
