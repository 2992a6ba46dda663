import { workspacePage } from '../../shared/http/workspace.js';
import { sessionRefresh } from '../../shared/adapters/wiring/session.js';

export const contract = {
  anonymous: true,
  page: true,
  responses: { 303: { description: 'To `next` with a new session, or to the sign-in form when the refresh token is missing or refused' } },
} as const;

export const handler = workspacePage(sessionRefresh.refresh);
