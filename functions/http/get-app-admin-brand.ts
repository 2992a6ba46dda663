import { signedInPage } from '../../shared/http/workspace.js';
import { brandPage } from '../../shared/adapters/wiring/brand.js';

export const contract = {
  page: true,
  responses: {
    200: { description: "The tenant's brand (display name, colour, sender name, the logo's preview) and the form to change it" },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  brandPage({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
