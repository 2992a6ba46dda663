import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { IssuedKeyView, NewKeyBody } from '../../shared/access/api-keys.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';

/** Issues an API key of the tenant; its value is in this answer only. Written to the audit log (never the value). */
export const contract = {
  admin: 'tenant' as const,
  body: NewKeyBody,
  statuses: { forbidden: 403 },
  responses: {
    201: answer('The new key, its value (`key`) shown this once', IssuedKeyView),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => ({
  status: 201,
  body: await apiKeys.issueKey(tenantId, { body, actor }),
}));
