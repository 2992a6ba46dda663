import { changeCase } from '../../shared/adapters/wiring/cases.js';
import { signedInPage } from '../../shared/http/workspace.js';

export const contract = {
  page: true,
  responses: {
    303: { description: 'Saved (a note, a status with its root cause, an owner): back to the case' },
    400: { description: 'The case again, saying what was wrong, with what was typed kept; nothing saved' },
    403: { description: 'Not posted from the workspace’s own pages' },
    404: { description: 'No such case among the signed-in user’s stores' },
    409: { description: 'The case changed meanwhile (or cannot move so): the case as it is now, saying so' },
  },
} as const;

export const handler = signedInPage(async ({ base, query, path, form, requestId, session, user }) =>
  changeCase({ tenantId: session.tenantId, user: await user(), base, requestId, query, id: path.id, form }),
);
