import { randomBytes } from 'node:crypto';
import type { AuditActor, AuditLog } from '../audit/log.js';
import { NotFoundError, StateConflictError } from '../errors.js';
import type { ChatDelivery } from './ports.js';

/** What re-sending a failed chat message reads and queues: the chat deliveries as the table keeps them, and the chat queue. */
export interface ChatReplayPorts {
  /** A delivery claimed at least once, with its state: `failed` (listed), or `sent` (claimed by a try since); undefined when unknown. */
  find(tenantId: number, id: string): Promise<{ status: 'failed' | 'sent'; delivery: ChatDelivery } | undefined>;
  send(delivery: ChatDelivery): Promise<void>;
}

/**
 * Re-sending a failed chat message at the tenant's request, as the event webhooks' retry does (shared/events/
 * webhook-replay.ts: the same answers and audit entry): 404 when unknown, 409 once sent, else queued once more as a
 * re-send (not retried again automatically). The chat's claim makes it safe to ask twice: of two re-sends of the same
 * try, the first to be handled takes the claim and the other sends nothing.
 */
export function chatReplay({ deliveries, audit }: { deliveries: ChatReplayPorts; audit: AuditLog }) {
  async function retry(tenantId: number, id: string, actor: AuditActor) {
    const found = await deliveries.find(tenantId, id);
    if (!found) throw new NotFoundError('No failed chat message has this id.');
    if (found.status !== 'failed') throw new StateConflictError('The chat message is not failed: it was sent since.');
    await deliveries.send({ ...found.delivery, attempt: found.delivery.attempt + 1, notBefore: undefined, replay: true });
    await audit.record(tenantId, {
      id: randomBytes(6).toString('hex'),
      at: new Date().toISOString(),
      actor,
      action: 'chat.retry',
      changes: [{ path: `alerts.chat.deliveries.${id}`, old: 'failed', new: 'replaying' }],
    });
    return { id, status: 'replaying' as const };
  }
  return { retry };
}
