import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { UserNamePath, UserView } from '../../shared/access/tenant-users.js';
import { UserPatchApiBody } from '../../shared/access/user-phone.js';
import { tenantUsers } from '../../shared/adapters/wiring/access.js';

/**
 * Changes a user's scope, role or state. A disabled user's token, pages and session refresh are refused from their
 * next request, and Cognito refuses their sign-in. An admin cannot disable themself or drop their own admin role; an admin
 * user grants only within their own scope and role (shared/access/tenant-users.ts).
 * Written to the audit log.
 */
export const contract = {
  admin: 'users' as const,
  path: UserNamePath,
  body: UserPatchApiBody,
  statuses: { forbidden: 403 },
  responses: {
    200: answer('The user as changed', UserView),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(
      'Not an admin key or admin user; or an admin user changing their own scope or role, granting a scope wider than their own or a role above theirs, or changing a user who sees stores or groups outside their scope (detail names which)',
    ),
    404: problem('This tenant has no user of that name'),
    409: problem('An admin disabling themself or dropping their own admin role (ask another admin)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, body, actor }) => ({
  status: 200,
  body: await tenantUsers.updateUser(tenantId, { given: path.email, patch: body, actor }),
}));
