import { casesPage } from '../../shared/adapters/wiring/cases.js';
import { signedInPage } from '../../shared/http/workspace.js';

export const contract = {
  page: true,
  responses: {
    200: { description: 'One case: the answer, its notes and history, and the forms that change it' },
    303: { description: 'No session: to sign in, and back' },
    404: { description: 'No such case among the signed-in user’s stores' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, path, requestId, session, user }) =>
  casesPage.showCase({ tenantId: session.tenantId, user: await user(), base, requestId, query, id: path.id }),
);
