import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { KeyIdPath, KeyView } from '../../shared/access/api-keys.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';

/** Revokes a key: refused from the next request on, whatever API Gateway cached. Written to the audit log. */
export const contract = {
  admin: 'tenant' as const,
  path: KeyIdPath,
  statuses: { forbidden: 403 },
  responses: {
    200: answer('The revoked key (revoking it again answers the same)', KeyView),
    400: problem('Invalid key id'),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('This tenant has no key with that id'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, actor }) => ({
  status: 200,
  body: await apiKeys.revokeKey(tenantId, { keyId: path.id, actor }),
}));
