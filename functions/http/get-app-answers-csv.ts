import { configuredSecret } from '../../shared/adapters/secrets.js';
import { answersPage } from '../../shared/adapters/wiring/answers.js';
import { ENV } from '../../shared/config.js';
import { signedInPage } from '../../shared/http/workspace.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: { description: 'The answers of the filters as CSV (UTF-8 with a BOM), a page at a time: the `Link` header names the next' },
    303: { description: 'No session: to sign in, and back' },
    400: { description: 'The inbox page, saying which filter is wrong' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, requestId, session, user }) =>
  answersPage.exportAnswers({ tenantId: session.tenantId, user: await user(), base, requestId, query }),
);
