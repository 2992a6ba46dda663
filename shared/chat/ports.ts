import type { TenantEvent } from '../events/ports.js';
import type { Locale } from '../locale.js';

/** The kinds of chat endpoint: a Slack incoming webhook, a Microsoft Teams Workflows webhook. */
export const CHAT_KINDS = ['slack', 'teams'] as const;
export type ChatKind = (typeof CHAT_KINDS)[number];

/**
 * What a chat endpoint can be sent: the case events (shared/cases/case-event.ts), and the digest and the score-drop alert
 * (shared/results/score-drop.ts), each composed by its own part.
 */
export const CHAT_EVENTS = ['case.opened', 'case.overdue', 'digest', 'score.drop'] as const;
export type ChatEvent = (typeof CHAT_EVENTS)[number];

/** A tenant lists at most this many chat endpoints. */
export const MAX_CHAT_ENDPOINTS = 20;

/** One chat endpoint of `alerts.chat` in the tenant's configuration. */
export interface ChatEndpoint {
  kind: ChatKind;
  url: string;
  events: ChatEvent[];
  /** The stores it hears of; all when absent. */
  stores?: number[] | undefined;
  /** Whether a case's message shows the customer's comment (customers type CPFs and phones into it). */
  comment: boolean;
}

/**
 * What the chat queue carries: one event for one endpoint. A case event as published (no contact, no comment: the
 * comment is read when the message is composed, only for an endpoint that shows it); a digest as its part composes it.
 */
export interface ChatDelivery {
  tenantId: number;
  url: string;
  event: ChatEventRecord;
  /** 1 for the first try. */
  attempt: number;
  /** Not to be tried before (a wait longer than the queue can delay a message). */
  notBefore?: string | undefined;
  /** Re-sent by the tenant: sent once more, not retried again automatically. */
  replay?: true | undefined;
}

/** An event a chat endpoint receives: a case event's shape, its type one of CHAT_EVENTS. */
export type ChatEventRecord = Omit<TenantEvent, 'type'> & { type: ChatEvent };

/**
 * A digest as a chat endpoint shows it (the digest's part composes it in the tenant's language): a title, lines of
 * text, and the link to the same figures in the workspace.
 */
export interface ChatDigest {
  title: string;
  lines: string[];
  link: string;
  /** The link's words ("Open the digest"). */
  open: string;
}

/** A failed delivery, as the admin page lists it. */
export interface FailedChatDelivery {
  id: string;
  event_id: string;
  type: ChatEvent;
  url: string;
  attempt: number;
  failed_at: string;
  error: string;
  /** When it is tried again; null when it is not (gone, exhausted, or a re-send). */
  next_attempt_at: string | null;
}

/** What the admin page shows of an endpoint's health. */
export interface ChatEndpointHealth {
  /** 404 or 410 answers in a row. */
  gone: number;
  broken: boolean;
}

export interface ChatDeliveryPorts {
  /** POSTs the JSON body; answers the status, or throws (a timeout, a refused connection, a non-public host). */
  post(url: string, body: string): Promise<number>;
  requeue(delivery: ChatDelivery, delaySeconds: number): Promise<void>;
  /**
   * Claims the delivery's one message (one event to one endpoint) before it is sent: true for its first try, or for a
   * retry or re-send of a delivery recorded as failed; false when it was claimed already (a redelivery of the queue's).
   */
  claim(tenantId: number, deliveryId: string, delivery: ChatDelivery): Promise<boolean>;
  /** Records the failure, the delivery listed as failed (claimable again by a retry or a re-send). */
  recordFailure(tenantId: number, failure: FailedChatDelivery, delivery: ChatDelivery): Promise<void>;
  /**
   * The endpoint as the tenant lists it now, with its count of gone answers in a row (undefined once removed: a
   * waiting retry is dropped).
   */
  endpoint(tenantId: number, url: string): Promise<(ChatEndpoint & { gone: number }) | undefined>;
  /** The words and link of the message: the case's names (and comment when `withComment`), or the digest as queued. */
  compose(tenantId: number, delivery: ChatDelivery, withComment: boolean): Promise<ChatMessageInput | undefined>;
  /** Counts a 404 or 410 answer of the endpoint (a gone webhook); answers the count in a row. */
  recordGone(tenantId: number, url: string): Promise<number>;
  /** The endpoint answered 2xx: a count of gone answers, if any, starts again. */
  recordAnswered(tenantId: number, url: string): Promise<void>;
}

/** What a message says, whatever the chat: a case's figures (no contact of the customer's ever), or a digest or score drop as composed. */
export type ChatMessageInput =
  | {
      type: 'case.opened' | 'case.overdue';
      locale: Locale;
      /** The case's short number in the tenant (read out on the phone); null when its event carries none (an older event). */
      number: number | null;
      score: number;
      store: string;
      employee: string;
      /** Only for an endpoint with `comment: true`; null when the customer left none (or it was erased). */
      comment?: string | null | undefined;
      due: string | null;
      link: string;
    }
  | ({ type: 'digest'; locale: Locale } & ChatDigest)
  | ({ type: 'score.drop'; locale: Locale } & ChatDigest);
