import { signedInPage } from '../../shared/http/workspace.js';
import { adminUsersPage } from '../../shared/adapters/wiring/access.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  form: {
    action: '`create`, `update`, `disable`, `enable` or `resend` (the invitation again, with a new temporary password)',
    email: 'create: the manager’s e-mail address',
    phone: 'create, optional: the manager’s mobile for the WhatsApp alerts (E.164, or national with +55 assumed)',
    scope: 'create, update: `all`, or `some` with `stores` and `groups` (comma-separated codes)',
    role: 'create, update: member or admin',
    name: 'update, disable, enable, resend: the user’s name (e-mail)',
    confirm: 'disable: `yes`, the ticked confirmation (refused without it)',
  },
  responses: {
    303: {
      description:
        'Invited: to the users page, the API token in a two-minute HttpOnly cookie of that path, shown there once (the temporary password only in the invitation e-mail); changed or invited again: back to the users, saying so',
    },
    400: {
      description:
        'The page again, each wrong field named (in the tenant’s language); an admin disabling themself or dropping their own admin role; an invitation again to a user who signed in already; nothing changed',
    },
    403: { description: 'Not a tenant admin, or posted from another site' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminUsersPage.saveUsers({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
