import { signedInPage } from '../../shared/http/workspace.js';
import { adminGeneralPage } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  responses: {
    200: { description: "The tenant's name, language and time zone, and the form to change them" },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminGeneralPage.showGeneral({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
