import { signedInPage } from '../../shared/http/workspace.js';
import { adminKeysPage } from '../../shared/adapters/wiring/access.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// Its cookies are sealed with the cursor secret: read at cold start.
await loadSecrets(ENV.cursorSecret);

export const contract = {
  page: true,
  form: {
    action: '`issue`, `revoke` or `rotate`',
    name: 'issue: what the tenant calls the key',
    scope: 'issue: public, chatbot or admin',
    expires_at: 'issue: when it stops working (YYYY-MM-DDTHH:MM, UTC); empty: until revoked',
    id: 'revoke, rotate: the key id',
    confirm: 'revoke: `yes`, the ticked confirmation (refused without it)',
    grace_seconds: 'rotate: how long the old key keeps working (0 to a week)',
  },
  responses: {
    303: {
      description:
        'Issued or replaced: to the keys page, the new value in a two-minute HttpOnly cookie of that path, shown there once; revoked: back to the keys, saying so',
    },
    400: { description: 'The page again, each wrong field named next to its input (or the key’s state); nothing changed' },
    403: { description: 'Not a tenant admin, or posted from another site' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminKeysPage.saveKeys({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
