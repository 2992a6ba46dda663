import { configuredSecret } from '../../shared/adapters/secrets.js';
import { casesPage } from '../../shared/adapters/wiring/cases.js';
import { ENV } from '../../shared/config.js';
import { signedInPage } from '../../shared/http/workspace.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description: "The signed-in user's cases (view: stores or mine; status: open, overdue, resolved, all; store; cursor), overdue first",
    },
    303: { description: 'No session: to sign in, and back' },
    400: { description: 'The page again, saying which filter is wrong (or that the store is not one of the user’s)' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, requestId, session, user }) =>
  casesPage.showCases({ tenantId: session.tenantId, user: await user(), base, requestId, query }),
);
