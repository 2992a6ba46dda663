import { signedInPage } from '../../shared/http/workspace.js';
import { adminRegionsForm } from '../../shared/adapters/wiring/tenants.js';

export const contract = {
  page: true,
  form: {
    etag: 'The configuration version the form was read at (its ETag)',
    action: '`delete` to delete the region `id`; absent, a save',
    id: "The region's id when editing or deleting one; absent, a new region",
    name: 'Its name',
    parent: 'The region it is inside (a main region), or empty',
    stores: 'The ids of its stores (repeated, or separated by commas)',
  },
  responses: {
    303: { description: 'Saved or deleted: back to the regions, saying so' },
    400: { description: 'The form again, each wrong field named next to its input; nothing saved' },
    403: { description: 'Not a tenant admin, or posted from another site' },
    409: { description: 'The configuration changed since the form was read: the form again with what was typed; nothing saved' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, form, session, user }) =>
  adminRegionsForm.saveRegion({ tenantId: session.tenantId, user: await user(), base, query, form }),
);
