import { signedInPage } from '../../shared/http/workspace.js';
import { showDigest } from '../../shared/adapters/wiring/digest.js';

export const contract = {
  page: true,
  responses: {
    200: { description: "The digest of the last week (period=day: yesterday) in the signed-in user's scope, as the e-mail shows it" },
    303: { description: 'No session: to sign in, and back' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, session, user }) =>
  showDigest({ tenantId: session.tenantId, user: await user(), base, query }),
);
