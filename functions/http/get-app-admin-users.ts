import { signedInPage } from '../../shared/http/workspace.js';
import { adminUsersPage } from '../../shared/adapters/wiring/access.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description:
        "The tenant's users (scope, role, state; never a token) and the form to invite one; after an invitation, the user's API token once (its cookie cleared)",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, cookies, session, user }) =>
  adminUsersPage.showUsers({ tenantId: session.tenantId, user: await user(), base, query, form, shownOnce: cookies.shownOnce }),
);
