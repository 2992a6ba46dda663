import { signedInPage } from '../../shared/http/workspace.js';
import { adminRegionsPage } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  responses: {
    200: {
      description: "The tenant's regions, their parent and stores, and the form to add one or edit one (query: edit, the region's id)",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminRegionsPage.showRegions({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
