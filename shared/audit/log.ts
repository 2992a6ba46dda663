import * as v from 'valibot';
import { integerString, pagingQuery, utcInstant, instant } from '../schema.js';

/** One changed value of a configuration: its path (`journeys[id=3].channels`), the value before and after. */
export interface ConfigChange {
  path: string;
  old: unknown;
  new: unknown;
}

/** How long an admin change stays in the tenant's audit log. */
export const AUDIT_KEPT_DAYS = 400;

/**
 * Who made an admin change: one of the tenant's API keys (by id, never its value), a user with the tenant-admin role
 * (by name, their e-mail address for a manager), or the operator's command.
 */
export type AuditActor = { keyId: string } | { user: string } | { operator: true };

/** An actor as stored and answered. */
export const AuditActorBody = v.union([
  v.object({ keyId: v.string() }),
  v.object({ user: v.string() }),
  v.object({ operator: v.literal(true) }),
]);

/** What an admin change was. */
export const AUDIT_ACTIONS = [
  'config.replace',
  'config.apply',
  'webhook.retry',
  'webhook.replay',
  'webhook.rotate',
  'chat.retry',
  'key.issue',
  'key.revoke',
  'key.rotate',
  'user.create',
  'user.update',
  'logo.upload',
  'qr.rotate',
  'kiosk.register',
  'kiosk.revoke',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One admin change: when, who, and each changed value (the configuration holds no secrets, so none is shown). */
export interface AuditEntry {
  id: string;
  at: string;
  actor: AuditActor;
  action: AuditAction;
  changes: ConfigChange[];
}

/** Where the audit log is kept: `shared/adapters/audit-log.ts` implements it. */
export interface AuditLog {
  record(tenantId: number, entry: AuditEntry): Promise<void>;
  /** Newest first, between `from` and `to` (ISO-8601 in UTC, both included; unbounded when absent); `cursor` continues a page. */
  list(
    tenantId: number,
    query: { from?: string | undefined; to?: string | undefined; limit: number; cursor?: string | undefined },
  ): Promise<{ data: AuditEntry[]; next_cursor: string | null }>;
}

/** GET /public/admin/audit's query: a period (days or UTC instants, as the entries are sorted), paging. */
export const AuditQuery = v.pipe(
  v.strictObject({
    from: v.optional(utcInstant),
    to: v.optional(utcInstant),
    limit: v.optional(integerString(1, 100), '20'),
    cursor: pagingQuery.cursor,
  }),
  // `to` includes its whole day or second (the log reads up to `${to}~`): a period that ends before it starts is refused.
  v.forward(
    v.check((query) => query.from === undefined || query.to === undefined || query.from <= `${query.to}~`, 'must not be before from'),
    ['to'],
  ),
);

/** An audit entry as the API answers it. */
export const AuditEntryBody = v.object({
  id: v.string(),
  at: instant,
  actor: AuditActorBody,
  action: v.picklist(AUDIT_ACTIONS),
  changes: v.array(v.object({ path: v.string(), old: v.unknown(), new: v.unknown() })),
});
