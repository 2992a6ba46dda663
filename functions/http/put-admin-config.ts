import * as v from 'valibot';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { etagOf, expectedVersion } from '../../shared/http/etag.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { configService } from '../../shared/adapters/wiring/tenants.js';
import { scoreDropRuns } from '../../shared/adapters/wiring/results.js';

const Changed = v.object({
  etag: v.string(),
  changes: v.array(v.object({ path: v.string(), old: v.unknown(), new: v.unknown() })),
});

/**
 * Replaces the tenant's configuration, validated by the tenant file's schema, if it is still the one the caller read
 * (If-Match: its ETag); answers the new ETag and each changed value. Every function uses it from its next request.
 */
export const contract = {
  admin: 'tenant' as const,
  body: ConfigDocument,
  ifMatch: 'the configuration you read (GET /public/admin/config)',
  statuses: { forbidden: 403 },
  responses: {
    200: answer('Replaced: the new ETag (also in the ETag header) and what changed, path by path', Changed, ['ETag']),
    400: problem('Invalid configuration (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
    412: problem('The configuration changed since that ETag was read'),
    428: problem('No If-Match header'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, headers, actor }) => {
  const expected = expectedVersion(headers['if-match'], contract.ifMatch);
  const { version, changes } = await configService.replaceConfig(tenantId, { expected, config: body, actor });
  // Turning alerts.scoreDrop on parks the tenant's first daily check.
  await scoreDropRuns.changed(tenantId, changes);
  return { status: 200, body: { etag: etagOf(version), changes }, headers: { etag: etagOf(version) } };
});
