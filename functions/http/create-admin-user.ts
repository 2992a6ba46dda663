import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { CreatedUserView } from '../../shared/access/tenant-users.js';
import { NewUserApiBody } from '../../shared/access/user-phone.js';
import { tenantUsers } from '../../shared/adapters/wiring/access.js';

/**
 * Creates a manager: their tenant user (scope, role; an API user token shown this once) and their sign-in user,
 * invited by an e-mail (SES, the tenant's sender, language and brand) with a temporary password that the answer never
 * holds. Written to the audit log.
 */
export const contract = {
  admin: 'users' as const,
  body: NewUserApiBody,
  statuses: { forbidden: 403, conflict: 409 },
  responses: {
    201: answer('The user, their token (`token`) shown this once, and whether the invitation went out', CreatedUserView),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(
      'Not an admin key or admin user, or an admin user granting a scope wider than their own or a role above theirs (detail names which)',
    ),
    409: problem(
      "A user with this e-mail exists already (change it with PATCH), the address cannot be invited to this tenant (its sign-in is another tenant's; the answer does not say so), or the tenant has no e-mail sender to invite with",
    ),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => ({
  status: 201,
  body: await tenantUsers.createUser(tenantId, { body, actor }),
}));
