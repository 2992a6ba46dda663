import { signedInPage } from '../../shared/http/workspace.js';
import { saveUsers } from '../../shared/adapters/wiring/workspace-admin-users.js';

export const contract = {
  page: true,
  form: {
    action: '`create`, `role`, `disable` or `enable`',
    email: 'create: the manager’s e-mail address',
    scope: 'create: `all`, or `some` with `stores` and `groups` (comma-separated codes)',
    role: 'create, role: member or admin',
    name: 'role, disable, enable: the user’s name (e-mail)',
  },
  responses: {
    200: { description: 'Invited: the page with the user’s API token, shown this once' },
    303: { description: 'Changed: back to the users, saying so' },
    400: { description: 'The page again, each wrong field named next to its input; nothing changed' },
    403: { description: 'Not a tenant admin, or posted from another site' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  saveUsers({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
