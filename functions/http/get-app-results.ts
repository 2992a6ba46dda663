import { signedInPage } from '../../shared/http/workspace.js';
import { resultsPage } from '../../shared/adapters/wiring/results.js';

export const contract = {
  page: true,
  responses: {
    200: { description: 'The results of a journey and period (query: journey, from, to), as the signed-in user may see them' },
    303: { description: 'No session: to sign in, and back' },
    400: { description: 'The page again, saying what is wrong with the journey or the dates' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, session, user }) =>
  resultsPage({
    tenantId: session.tenantId,
    user: await user(),
    base,
    query,
    today: new Date().toISOString().slice(0, 10),
  }),
);
