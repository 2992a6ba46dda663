import { EmployeeStoresBody } from '../../shared/employees/schema.js';
import { replaceRelation } from '../../shared/employees/service.js';
import { httpHandler } from '../../shared/http/handler.js';
import { IdPath } from '../../shared/schema.js';
import { resolveUser } from '../../shared/tenants/service.js';

/** Seed 4.3: replaces the links; the user token must cover every store added or removed (else 401). */
export const handler = httpHandler({ path: IdPath, body: EmployeeStoresBody }, async ({ tenantId, path, body, userToken }) => {
  const user = await resolveUser(tenantId, userToken);
  return { status: 200, body: { data: await replaceRelation(tenantId, path.id, 'stores', body.stores, user.scope) } };
});
