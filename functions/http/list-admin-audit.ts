import * as v from 'valibot';
import { AuditEntryBody, AuditQuery } from '../../shared/audit/log.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { auditEntries } from '../../shared/adapters/wiring/tenants.js';

/** The tenant's admin changes, newest first: who (key id, or the operator), when, and each changed value. */
export const contract = {
  admin: 'tenant' as const,
  query: AuditQuery,
  statuses: { forbidden: 403, validation: 422 },
  responses: {
    200: answer('Admin changes, newest first', v.object({ data: v.array(AuditEntryBody), next_cursor: v.nullable(v.string()) })),
    403: problem(NOT_TENANT_ADMIN),
    422: problem('Invalid parameters'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query }) => ({
  status: 200,
  body: await auditEntries(tenantId, query),
}));
