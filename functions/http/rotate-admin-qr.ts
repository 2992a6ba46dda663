import { qrAdmin } from '../../shared/adapters/wiring/in-store.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { QrRotated } from '../../shared/in-store/qr-schema.js';
import { rotateQrCodes } from '../../shared/in-store/qr-admin.js';

/** Retires every QR code printed so far (410 from the next request): print the new ones. Written to the audit log. */
export const contract = {
  admin: 'tenant' as const,
  statuses: { forbidden: 403 },
  responses: {
    200: answer('The generation the codes are signed under from now on', QrRotated),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, actor }) => ({
  status: 200,
  body: { generation: await rotateQrCodes(tenantId, { actor, ports: qrAdmin }) },
}));
