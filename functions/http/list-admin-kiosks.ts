import * as v from 'valibot';
import { kioskAdmin } from '../../shared/adapters/wiring/in-store.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { KioskView } from '../../shared/in-store/kiosk-schema.js';
import { listKiosks } from '../../shared/in-store/kiosk.js';

/** The tenant's kiosks, oldest first, revoked ones too; never a device token. */
export const contract = {
  admin: 'tenant' as const,
  statuses: { forbidden: 403 },
  responses: { 200: answer("The tenant's kiosks", v.object({ data: v.array(KioskView) })), 403: problem(NOT_TENANT_ADMIN) },
};

export const handler = httpHandler(contract, async ({ tenantId }) => ({
  status: 200,
  body: { data: await listKiosks(tenantId, kioskAdmin) },
}));
