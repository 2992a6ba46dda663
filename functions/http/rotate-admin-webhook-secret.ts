import * as v from 'valibot';
import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { ROTATION_OVERLAP_HOURS } from '../../shared/events/signature.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { rotateWebhookSecret } from '../../shared/adapters/wiring/tenant-admin.js';

// An endpoint's signing secret derives from the deployment's survey secret (never stored): read at the cold start.
await configuredSecret(ENV.surveySecret);

const Body = v.strictObject({
  url: v.pipe(v.string('must be a string'), v.url('must be the URL of one of your event endpoints')),
  overlap_hours: v.optional(
    v.pipe(
      v.number('must be a number of hours'),
      v.minValue(0, 'must be 0 or more (0: the old secret stops signing at once)'),
      v.maxValue(ROTATION_OVERLAP_HOURS.max, `must be at most ${ROTATION_OVERLAP_HOURS.max} (a week)`),
    ),
    ROTATION_OVERLAP_HOURS.default,
  ),
});

/**
 * Rotates an event endpoint's signing secret: the new one is answered here once (it is derived, never stored); the old
 * one goes on signing beside it for `overlap_hours` (a day by default), then only the new one signs. Written to the
 * audit log (generations and the end of the overlap, never a secret).
 */
export const contract = {
  admin: true as const,
  body: Body,
  statuses: { forbidden: 403 },
  responses: {
    201: answer(
      'The new signing secret (`secret`, shown this once), its generation, and until when the previous one also signs',
      v.object({ url: v.string(), secret: v.string(), generation: v.number(), previous_signs_until: v.string() }),
    ),
    400: problem('Invalid body (errors names each wrong field)'),
    403: problem('Not an admin key'),
    404: problem('The tenant has no event endpoint at that URL'),
    409: problem("The last rotation's overlap still runs (overlap_hours 0, a hard cutover, is taken)"),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, body, actor }) => {
  const rotated = await rotateWebhookSecret(tenantId, body.url, body.overlap_hours, new Date(), actor);
  return {
    status: 201,
    body: { url: body.url, secret: rotated.secret, generation: rotated.generation, previous_signs_until: rotated.oldSignsUntil },
  };
});
