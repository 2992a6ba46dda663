import { signedInPage } from '../../shared/http/workspace.js';
import { adminGeneralForm } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  form: {
    etag: 'The configuration version the form was read at (its ETag)',
    name: "The tenant's name",
    locale: 'The language of its surveys and pages: pt-BR, es or en',
    timeZone: 'The time zone its people read times in (an IANA name)',
  },
  responses: {
    303: { description: 'Saved: back to the page, saying so (in the new language)' },
    400: { description: 'The form again, each wrong field named next to its input; nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: the form again with what was typed; nothing saved' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminGeneralForm.saveGeneral({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
