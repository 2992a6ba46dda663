import { casesPage } from '../../shared/adapters/wiring/cases.js';
import { signedInPage } from '../../shared/http/workspace.js';

export const contract = {
  page: true,
  responses: {
    200: { description: 'The case with its customer’s contact, shown this once; the read is written to the access log first' },
    403: { description: 'Not posted from the workspace’s own pages' },
    404: { description: 'No such case among the signed-in user’s stores' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, path, requestId, session, user }) =>
  casesPage.revealContact({ tenantId: session.tenantId, user: await user(), base, requestId, query, id: path.id }),
);
