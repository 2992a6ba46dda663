import { signedInPage } from '../../shared/http/workspace.js';
import { adminJourneysForm } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  form: {
    etag: 'The configuration version the form was read at (its ETag)',
    id: "The journey's id when editing one; absent, a new journey",
    slug: 'The journey slug integrations send',
    name: 'Its name',
    indicator: "The main score's indicator",
    classes: 'The ids of the items it asks (repeated)',
    channels: 'Its channels, in the order they are tried (repeated)',
    'questions.pt-BR': 'The main question in pt-BR (also questions.es, questions.en)',
  },
  responses: {
    303: { description: 'Saved: back to the journeys, saying so' },
    400: { description: 'The form again, each wrong field named next to its input; nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: the form again with what was typed; nothing saved' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminJourneysForm.saveJourney({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
