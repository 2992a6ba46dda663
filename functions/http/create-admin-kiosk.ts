import { kioskAdmin } from '../../shared/adapters/wiring/in-store.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { configured, ENV } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NewKioskBody, RegisteredKioskView } from '../../shared/in-store/kiosk-schema.js';
import { registerKiosk } from '../../shared/in-store/kiosk.js';

const baseUrl = configured(ENV.surveyBaseUrl);

/** Registers a store's tablet; its device token (and the address that keeps it) in this answer only. Audited. */
export const contract = {
  admin: 'tenant' as const,
  body: NewKioskBody,
  statuses: { forbidden: 403 },
  responses: {
    201: answer('The new kiosk: its `token` and the `url` the tablet opens once, shown this once', RegisteredKioskView),
    400: problem(
      'Invalid body, an unknown or inactive store, an unknown journey, or an employee who does not work at the store (errors names each wrong field)',
    ),
    403: problem(NOT_TENANT_ADMIN),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => ({
  status: 201,
  body: await registerKiosk(tenantId, { body, actor, ports: kioskAdmin, baseUrl: baseUrl() }),
}));
