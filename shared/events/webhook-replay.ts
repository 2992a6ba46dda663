import * as v from 'valibot';
import { utcInstant } from '../schema.js';
import { randomBytes } from 'node:crypto';
import { NotFoundError, StateConflictError } from '../errors.js';
import type { AuditActor, AuditLog } from '../audit/log.js';
import type { DeliveryReplayPorts } from './ports.js';

/** How many failed deliveries one replay call re-queues at most; its cursor continues. */
export const REPLAY_PAGE = 100;

export interface ReplayServicePorts {
  deliveries: DeliveryReplayPorts;
  audit: AuditLog;
}

/**
 * Re-sending failed deliveries at the tenant's request. Each is claimed (failed -> replaying) before it is queued, so
 * two calls, or a call and the delivery's own automatic retry, never send it twice; it goes out with its event's id, so
 * a receiver that deduplicates on `webhook-id` is safe even from a redelivered queue message.
 */
export function replayService({ deliveries, audit }: ReplayServicePorts) {
  const record = (
    tenantId: number,
    {
      actor,
      action,
      changes,
    }: { actor: AuditActor; action: 'webhook.retry' | 'webhook.replay'; changes: { path: string; old: unknown; new: unknown }[] },
  ) => audit.record(tenantId, { id: randomBytes(6).toString('hex'), at: new Date().toISOString(), actor, action, changes });

  /**
   * Re-sends one failed delivery now: 404 when unknown, 409 once delivered. Idempotent: a retry of a delivery already
   * being re-sent (by this call repeated, another retry or a replay) answers the same and queues nothing more.
   */
  async function retry(tenantId: number, id: string, actor: AuditActor) {
    const found = await deliveries.find(tenantId, id);
    if (!found) throw new NotFoundError('No failed delivery has this id.');
    if (found.status === 'delivered') throw new StateConflictError('The delivery is not failed: it is delivered.');
    if (found.status === 'replaying' || !(await deliveries.claim(tenantId, id, new Date().toISOString())))
      return { id, status: 'replaying' as const };
    await deliveries.send({ ...found.delivery, attempt: found.delivery.attempt + 1, notBefore: undefined, replay: true });
    await record(tenantId, {
      actor,
      action: 'webhook.retry',
      changes: [{ path: `webhooks.deliveries.${id}`, old: 'failed', new: 'replaying' }],
    });
    return { id, status: 'replaying' as const };
  }

  /** Re-queues the failed deliveries to `url` of events created at or after `since`, at most REPLAY_PAGE a call. */
  async function replay(tenantId: number, query: { url: string; since: string; cursor?: string | undefined }, actor: AuditActor) {
    const page = await deliveries.failedSince(tenantId, {
      url: query.url,
      since: query.since,
      limit: REPLAY_PAGE,
      cursor: query.cursor,
    });
    const replayed: string[] = [];
    for (const id of page.ids) {
      const found = await deliveries.find(tenantId, id);
      // Claimed by someone else meanwhile (a retry, another replay): that one sends it.
      if (found?.status !== 'failed' || !(await deliveries.claim(tenantId, id, new Date().toISOString()))) continue;
      await deliveries.send({ ...found.delivery, attempt: found.delivery.attempt + 1, notBefore: undefined, replay: true });
      replayed.push(id);
    }
    await record(tenantId, {
      actor,
      action: 'webhook.replay',
      changes: [{ path: 'webhooks.replay', old: null, new: { endpoint: query.url, since: query.since, replayed: replayed.length } }],
    });
    return { replayed, next_cursor: page.next_cursor };
  }

  return { retry, replay };
}

/** POST /public/webhooks/deliveries/replay's body: the endpoint, since when (a day, or an instant taken as UTC), a cursor. */
export const ReplayBody = v.strictObject({
  endpoint: v.pipe(v.string('must be a string'), v.minLength(1, 'must not be empty'), v.maxLength(2000, 'must be at most 2000 characters')),
  since: utcInstant,
  cursor: v.optional(v.pipe(v.string('must be a string'), v.maxLength(4096, 'must be at most 4096 characters'))),
});
