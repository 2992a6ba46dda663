import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { RotatedWebhookSecret, RotateWebhookSecretBody } from '../../shared/events/rotation.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { NOT_TENANT_ADMIN } from '../../shared/access/capabilities.js';
import { webhookRotation } from '../../shared/adapters/wiring/events.js';

// An endpoint's signing secret derives from the deployment's survey secret (never stored): read at the cold start.
await configuredSecret(ENV.surveySecret);

/**
 * Rotates an event endpoint's signing secret: the new one is answered here once (it is derived, never stored); the old
 * one goes on signing beside it for `overlap_hours` (a day by default), then only the new one signs. Written to the
 * audit log (generations and the end of the overlap, never a secret).
 */
export const contract = {
  admin: 'tenant' as const,
  body: RotateWebhookSecretBody,
  statuses: { forbidden: 403 },
  responses: {
    201: answer(
      'The new signing secret (`secret`, shown this once), its generation, and until when the previous one also signs',
      RotatedWebhookSecret,
    ),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem(NOT_TENANT_ADMIN),
    404: problem('The tenant has no event endpoint at that URL'),
    409: problem("The last rotation's overlap still runs (overlap_hours 0, a hard cutover, is taken)"),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body: { url, overlap_hours: overlapHours }, actor }) => {
  const rotated = await webhookRotation.rotateWebhookSecret(tenantId, { target: url, overlapHours, now: new Date(), actor });
  return {
    status: 201,
    body: { url, secret: rotated.secret, generation: rotated.generation, previous_signs_until: rotated.oldSignsUntil },
  };
});
