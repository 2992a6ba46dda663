import * as v from 'valibot';
import { instant, wholeNumber } from '../schema.js';
import { ROTATION_OVERLAP_HOURS } from './signature.js';

/** POST /public/admin/webhooks/rotate: which event endpoint, and how long its old secret goes on signing beside the new one. */
export const RotateWebhookSecretBody = v.strictObject({
  url: v.pipe(
    v.string('must be a string'),
    v.maxLength(2000, 'must be at most 2000 characters'),
    v.url('must be the URL of one of your event endpoints'),
  ),
  overlap_hours: v.optional(
    v.pipe(
      v.number('must be a number of hours'),
      v.minValue(0, 'must be 0 or more (0: the old secret stops signing at once)'),
      v.maxValue(ROTATION_OVERLAP_HOURS.max, `must be at most ${ROTATION_OVERLAP_HOURS.max} (a week)`),
    ),
    ROTATION_OVERLAP_HOURS.default,
  ),
});

/** A rotation's answer: the new secret (shown this once), its generation, and until when the previous one also signs. */
export const RotatedWebhookSecret = v.object({
  url: v.string(),
  secret: v.string(),
  generation: wholeNumber,
  previous_signs_until: instant,
});
export type RotatedWebhookSecret = v.InferOutput<typeof RotatedWebhookSecret>;
