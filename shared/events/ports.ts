import type { SigningGenerations } from './signature.js';

/** The events a tenant's webhooks can receive. */
export const EVENT_TYPES = [
  'survey.answered',
  'survey.failed',
  'transaction.rejected',
  'case.opened',
  'case.resolved',
  'case.overdue',
  'case.recovered',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * Events a tenant's webhooks receive: an id that stays the same however often the event is published (receivers
 * deduplicate on it), its type, when it happened and what it is about. No customer contact is ever in one, and the
 * answer's free-text comment only reaches an endpoint the tenant opted in (`eventFor`).
 */
export interface TenantEvent {
  id: string;
  type: EventType;
  created_at: string;
  data: Record<string, unknown>;
}

/** Publishes an event to each of the tenant's endpoints that takes its type (none configured: nothing happens). */
export interface EventPublisher {
  publish(tenantId: number, event: TenantEvent): Promise<void>;
}

/** One delivery of one event to one endpoint: what the event queue carries. */
export interface EventDelivery {
  tenantId: number;
  url: string;
  event: TenantEvent;
  /** 1 for the first try. */
  attempt: number;
  /** Not to be tried before (a wait longer than the queue can delay a message). */
  notBefore?: string | undefined;
  /** Re-sent by the tenant (retry or replay): sent once more, not retried again automatically. */
  replay?: true | undefined;
  /** An automatic retry's: when the try before it failed (its entry in the failures listed, whose retry time it is). */
  lastFailedAt?: string | undefined;
}

/** A delivery that failed, as the tenant can list it. */
export interface FailedDelivery {
  /** The delivery's id (one event to one endpoint), which the retry route takes. */
  id: string;
  event_id: string;
  type: EventType;
  url: string;
  attempt: number;
  failed_at: string;
  error: string;
  /** When it is tried again; null once it went to the dead-letter queue. */
  next_attempt_at: string | null;
}

export interface EventDeliveryPorts {
  /**
   * POSTs the body with the signature; answers the status, or throws for a network failure, a timeout, or (off the
   * local stack) a host that is or resolves to a non-public address, named NotPublicAddress.
   */
  post(url: string, body: string, headers: Record<string, string>): Promise<number>;
  /** Puts a delivery back on the queue to arrive after `delaySeconds` (at most the queue's longest delay). */
  requeue(delivery: EventDelivery, delaySeconds: number): Promise<void>;
  /** Records the failure, and the delivery as failed with its event (for a retry or a replay). */
  recordFailure(tenantId: number, failure: FailedDelivery, delivery: EventDelivery): Promise<void>;
  /** Records that the retry a listed failure announced will not come (dropped): its `next_attempt_at` becomes null. */
  recordRetryDropped(tenantId: number, failure: Pick<FailedDelivery, 'failed_at' | 'event_id' | 'attempt'>): Promise<void>;
  /** Records a delivery that had failed as delivered (its id): a retry of it still waiting is then dropped. */
  recordDelivered(tenantId: number, deliveryId: string): Promise<void>;
  /** Whether a delivery that failed is still failed (not delivered since, nor being re-sent by the tenant). */
  stillFailed(tenantId: number, deliveryId: string): Promise<boolean>;
  /**
   * Whether the tenant still lists this endpoint, with the secrets that sign for it at `now` (derived, never stored:
   * the current one, and the one before during a rotation window) and whether it takes the answer's comment:
   * undefined once the endpoint was removed, so that a delivery still waiting to be retried is dropped, not sent.
   */
  endpoint(tenantId: number, url: string, now: Date): Promise<{ secrets: string[]; includeComment?: boolean | undefined } | undefined>;
  /**
   * Whether the customer of the transaction an event is about was erased since it was published, or its personal
   * copies expired: a delivery still waiting then goes without what it carries of them.
   */
  personalDataGone(tenantId: number, event: TenantEvent): Promise<boolean>;
}

export interface FailedDeliveries {
  recent(tenantId: number, limit: number): Promise<FailedDelivery[]>;
}

/** What the retry and replay routes need: the failed deliveries, claimed once each, and the event queue. */
export interface DeliveryReplayPorts {
  /** A delivery that failed at least once; undefined when unknown (or older than the failures kept). */
  find(
    tenantId: number,
    deliveryId: string,
  ): Promise<{ status: 'failed' | 'replaying' | 'delivered'; delivery: EventDelivery } | undefined>;
  /** Marks a failed delivery as being re-sent; false when it no longer is failed (a concurrent claim, a delivery). */
  claim(tenantId: number, deliveryId: string, at: string): Promise<boolean>;
  /** The failed deliveries to one endpoint of events created at or after `since`, oldest first, a page at a time. */
  failedSince(
    tenantId: number,
    page: { url: string; since: string; limit: number; cursor: string | undefined },
  ): Promise<{ ids: string[]; next_cursor: string | null }>;
  send(delivery: EventDelivery): Promise<void>;
}

/** What signing reads of a tenant's delivery settings: its chatbot's webhook and its event endpoints. */
export interface SignedEndpoints {
  chatbot?: { url: string } | undefined;
  webhooks?: { url: string }[] | undefined;
}

/** Where the signing generations of a tenant's webhook endpoints are kept: the tenant repository implements it. */
export interface SigningRepository {
  readSettings(tenantId: number): Promise<{ delivery: SignedEndpoints }>;
  /**
   * Raises an endpoint's signing generation by one, keeping the one before until `previousUntil` (ISO-8601); answers
   * the generations now in force. Undefined, and nothing changed, when `previousUntil` is after `now` (an overlap) while
   * the last rotation's overlap still runs: its older generation would stop signing at once.
   */
  rotateSigning(
    tenantId: number,
    endpoint: string,
    rotation: { previousUntil: string; now: string },
  ): Promise<SigningGenerations | undefined>;
  /** Raises the tenant's configuration version by one (a rotation does, so that functions read the generations again). */
  raiseConfigVersion(tenantId: number): Promise<number | undefined>;
}
