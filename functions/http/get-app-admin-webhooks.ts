import { signedInPage } from '../../shared/http/workspace.js';
import { adminWebhooksPage } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its shown-once cookie is sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description:
        "The tenant's event endpoints (URL, event types) and the form to add one; after a new endpoint's post, its signing secret once (its cookie cleared)",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, cookies, session, user }) =>
  adminWebhooksPage.showWebhooks({ tenantId: session.tenantId, user: await user(), base, query, form, shownOnce: cookies.shownOnce }),
);
