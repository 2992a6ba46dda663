import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { KeyView } from '../../shared/access/api-keys.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';

/** The tenant's API keys with their last use, oldest first; never a key's value. */
export const contract = {
  admin: 'tenant' as const,
  statuses: { forbidden: 403 },
  responses: { 200: answer("The tenant's keys", v.object({ data: v.array(KeyView) })), 403: problem(NOT_TENANT_ADMIN) },
};

export const handler = httpHandler(contract, async ({ tenantId }) => ({ status: 200, body: { data: await apiKeys.listKeys(tenantId) } }));
