import { signedInPage } from '../../shared/http/workspace.js';
import { adminWebhooksForm } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { loadSecrets } from '../../shared/adapters/secrets.js';

// A new endpoint's signing secret derives from the survey secret, and goes to the next page sealed with the cursor
// secret: both read at cold start.
await loadSecrets(ENV.surveySecret, ENV.cursorSecret);

export const contract = {
  page: true,
  form: {
    etag: 'The configuration version the form was read at (its ETag)',
    action: '`add` or `remove`',
    url: "The endpoint's URL",
    events: 'The event types it receives (repeated; none: all)',
    includeComment: "`true`: survey.answered carries the customer's comment",
  },
  responses: {
    303: {
      description:
        "Added or removed: back to the endpoints, saying so; a new endpoint's signing secret in a two-minute HttpOnly cookie of that path, shown there once",
    },
    400: { description: 'The form again, each wrong field named next to its input; nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: the form again with what was typed; nothing saved' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminWebhooksForm.saveWebhooks({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
