import { workspacePage } from '../../shared/http/workspace.js';
import { sessionService } from '../../shared/adapters/wiring/session.js';

export const contract = {
  anonymous: true,
  page: true,
  responses: {
    303: { description: 'Signed out: the refresh token is revoked, the cookies cleared; to the sign-in form' },
    403: { description: 'Posted from another site' },
  },
} as const;

export const handler = workspacePage(sessionService.signOut);
