import { randomBytes } from 'node:crypto';
import { NotFoundError, StateConflictError, ValidationError } from '../errors.js';
import { CHATBOT_ENDPOINT, eventEndpoint, ROTATION_OVERLAP_HOURS, webhookSecret } from './signature.js';
import type { AuditActor, AuditLog } from '../audit/log.js';
import type { SignedEndpoints, SigningRepository } from './ports.js';

const eventLabel = (url: string) => `events endpoint ${url}`;

/** The webhook endpoints delivery settings list: each one's signing endpoint and how a person reads it. */
export const webhookEndpoints = (delivery: SignedEndpoints): [string, string][] => [
  ...(delivery.chatbot ? [[CHATBOT_ENDPOINT, 'chatbot webhook'] as [string, string]] : []),
  ...(delivery.webhooks ?? []).map((w): [string, string] => [eventEndpoint(w.url), eventLabel(w.url)]),
];

/** An endpoint's signing secret of one generation, or undefined without the survey secret. */
export const signingSecret =
  (surveySecret: () => string | undefined) =>
  (tenantId: number, endpoint: string, generation: number): string | undefined => {
    const root = surveySecret();
    return root ? webhookSecret({ rootSecret: root, tenantId, endpoint, generation }) : undefined;
  };

/**
 * The rotation of a webhook endpoint's signing secret (POST /public/admin/webhooks/rotate and the operator's command),
 * apart from the rest of the tenant service, which the rotate route never calls. `surveySecret` answers the
 * deployment's survey secret (read when a secret is derived), from which the new secret derives, to be shown once.
 */
export function webhookRotation(
  tenants: SigningRepository,
  { surveySecret, surveySecretName, audit }: { surveySecret: () => string | undefined; surveySecretName: string; audit: AuditLog },
) {
  /**
   * Rotates the signing secret of one of the tenant's webhook endpoints (`chatbot`, or an event endpoint's URL) and
   * answers the new secret, to be shown once. For `overlapHours` every delivery is signed with both the new and the
   * old secret, so that the receiver can switch without losing any; then with the new one only. Written to the audit
   * log as generation numbers and the end of the overlap: the secret itself is never stored or recorded.
   */
  async function rotateWebhookSecret(
    tenantId: number,
    {
      target,
      overlapHours,
      now = new Date(),
      actor = { operator: true },
    }: { target: string; overlapHours: number; now?: Date; actor?: AuditActor },
  ): Promise<{ label: string; secret: string; generation: number; oldSignsUntil: string }> {
    if (!surveySecret()) throw new Error(`Run with ${surveySecretName} set to the stack's survey secret: the new secret must be shown.`);
    if (!(overlapHours >= 0 && overlapHours <= ROTATION_OVERLAP_HOURS.max))
      throw new ValidationError(`The overlap must be from 0 to ${ROTATION_OVERLAP_HOURS.max} hours.`);
    const { delivery } = await tenants.readSettings(tenantId);
    const wanted = target === CHATBOT_ENDPOINT ? CHATBOT_ENDPOINT : eventEndpoint(target);
    const found = webhookEndpoints(delivery).find(([endpoint]) => endpoint === wanted);
    if (!found)
      throw new NotFoundError(
        `Tenant ${tenantId} has no webhook endpoint ${target === CHATBOT_ENDPOINT ? 'for the chatbot' : 'at that URL'}.`,
      );
    const until = new Date(now.getTime() + overlapHours * 3_600_000).toISOString();
    const rotated = await tenants.rotateSigning(tenantId, found[0], { previousUntil: until, now: now.toISOString() });
    if (!rotated)
      throw new StateConflictError(
        'The secret this endpoint had before its last rotation still signs (that overlap runs): rotate again once it ends, or with overlap_hours 0 to stop every older secret at once.',
      );
    const { current, previous } = rotated;
    await tenants.raiseConfigVersion(tenantId);
    const path = `webhooks[${wanted === CHATBOT_ENDPOINT ? CHATBOT_ENDPOINT : `url=${target}`}].signing`;
    await audit.record(tenantId, {
      id: randomBytes(6).toString('hex'),
      at: now.toISOString(),
      actor,
      action: 'webhook.rotate',
      changes: [
        { path: `${path}.generation`, old: previous?.generation ?? current - 1, new: current },
        { path: `${path}.previous_signs_until`, old: null, new: until },
      ],
    });
    return {
      label: found[1],
      secret: signingSecret(surveySecret)(tenantId, found[0], current)!,
      generation: current,
      oldSignsUntil: until,
    };
  }

  return { rotateWebhookSecret };
}
