import { signedInPage } from '../../shared/http/workspace.js';
import { chooseDigest } from '../../shared/adapters/wiring/digest.js';

export const contract = {
  page: true,
  responses: {
    303: { description: "The signed-in user's choice of digest e-mail (digest: weekly, daily or off) saved: back to the digest page" },
    400: { description: 'The digest page, saying the choice is none of weekly, daily or off; nothing saved' },
    403: { description: 'Not posted from the workspace’s own pages' },
  },
} as const;

export const handler = signedInPage(async ({ base, form, session, user }) =>
  chooseDigest({ tenantId: session.tenantId, user: await user(), base, form }),
);
