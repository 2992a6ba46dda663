import { signedInPage } from '../../shared/http/workspace.js';
import { adminJourneysPage } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  responses: {
    200: { description: "The tenant's journeys and their items, and the form to add one or edit one (query: edit, the journey's id)" },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminJourneysPage.showJourneys({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
