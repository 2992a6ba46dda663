import { signedInPage } from '../../shared/http/workspace.js';
import { openAdmin } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  responses: {
    303: { description: 'To the first admin page the user may open (or, without a session, to sign in)' },
    403: { description: 'The signed-in user may open no admin page' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  openAdmin({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
