import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { UserView } from '../../shared/access/tenant-users.js';
import { tenantUsers } from '../../shared/adapters/wiring/access.js';

/** The tenant's users with their scope, role and state, by name; never a token. */
export const contract = {
  admin: 'users' as const,
  statuses: { forbidden: 403 },
  responses: { 200: answer("The tenant's users", v.object({ data: v.array(UserView) })), 403: problem('Not an admin key or admin user') },
};

export const handler = httpHandler(contract, async ({ tenantId }) => ({
  status: 200,
  body: { data: await tenantUsers.listUsers(tenantId) },
}));
