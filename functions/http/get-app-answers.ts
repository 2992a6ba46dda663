import { configuredSecret } from '../../shared/adapters/secrets.js';
import { answersPage } from '../../shared/adapters/wiring/answers.js';
import { ENV } from '../../shared/config.js';
import { signedInPage } from '../../shared/http/workspace.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    200: {
      description: 'What customers answered, newest first, with the filters of GET /public/answers, as the signed-in user may see them',
    },
    303: { description: 'No session: to sign in, and back' },
    400: { description: 'The page again, saying which filter is wrong (or that the store is not one of the user’s)' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, requestId, session, user }) =>
  answersPage.showAnswers({ tenantId: session.tenantId, user: await user(), base, requestId, query }),
);
