import { signedInPage } from '../../shared/http/workspace.js';
import { adminThemesPage } from '../../shared/adapters/wiring/themes.js';

export const contract = {
  page: true,
  responses: {
    200: {
      description:
        "The tenant's themes (or the defaults), the form to add one or edit one (query: edit, the theme's slug), and the last 30 days' suggestions",
    },
    303: { description: 'No session: to sign in, and back' },
    403: { description: 'The signed-in user is not a tenant admin' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminThemesPage.showThemes({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
