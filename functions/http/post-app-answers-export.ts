import { configuredSecret } from '../../shared/adapters/secrets.js';
import { answerExportStarts, answersPage } from '../../shared/adapters/wiring/answers.js';
import { ENV } from '../../shared/config.js';
import { signedInPage } from '../../shared/http/workspace.js';

// The answers service it checks the filters with seals its cursors with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

export const contract = {
  page: true,
  responses: {
    303: {
      description: 'The export started (or the one of the same filters running found): back to the answers page, which shows its progress',
    },
    400: { description: 'The answers page, saying which filter is wrong (or that the store is not one of the user’s); nothing started' },
    403: { description: 'Not posted from the workspace’s own pages' },
  },
} as const;

export const handler = signedInPage(async ({ base, form, requestId, session, user }) =>
  answersPage.startExport(
    { tenantId: session.tenantId, user: await user(), base, requestId, query: Object.fromEntries(form) },
    answerExportStarts,
  ),
);
