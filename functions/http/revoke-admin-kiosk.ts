import { kioskAdmin } from '../../shared/adapters/wiring/in-store.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { KioskIdPath, KioskView } from '../../shared/in-store/kiosk-schema.js';
import { revokeKiosk } from '../../shared/in-store/kiosk.js';

/** Revokes a kiosk: its next request is refused (410) and nothing more is recorded. Audited. */
export const contract = {
  admin: 'tenant' as const,
  path: KioskIdPath,
  statuses: { forbidden: 403 },
  responses: {
    200: answer('The revoked kiosk (revoking it again answers the same)', KioskView),
    400: problem('Invalid kiosk id'),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('This tenant has no kiosk with that id'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, path, actor }) => ({
  status: 200,
  body: await revokeKiosk(tenantId, { id: path.id, actor, ports: kioskAdmin }),
}));
