import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { AdminConfigBody } from '../../shared/http/admin.js';
import { etagOf } from '../../shared/http/etag.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { configService } from '../../shared/adapters/wiring/tenants.js';

/** The tenant's whole configuration (no secrets), with its version as the ETag a replacement must send back. */
export const contract = {
  admin: 'tenant' as const,
  statuses: { forbidden: 403 },
  responses: {
    200: answer('The configuration; its ETag header is its version', AdminConfigBody, ['ETag']),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId }) => {
  const { config, version } = await configService.readConfig(tenantId);
  return { status: 200, body: config, headers: { etag: etagOf(version) } };
});
