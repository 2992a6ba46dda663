import { deliveryId } from '../events/events.js';
import { appCasePath } from '../session/paths.js';
import { timesOf } from '../i18n/times.js';
import { DEFAULT_LOCALE, timeZoneOf } from '../locale.js';
import { MAX_DELAY_SECONDS } from '../queues.js';
import type { Settings } from '../settings/settings.js';
import type { ChatDelivery, ChatDeliveryPorts, ChatDigest, ChatMessageInput } from './ports.js';
import { chatMessage } from './render.js';
import { redact } from '../themes/redact.js';

/**
 * Waits before each retry of a chat message that failed, about eight hours in all: an alert later than that is news
 * no longer. The last failure stays listed as failed, for the tenant to re-send.
 */
export const CHAT_RETRY_MINUTES = [1, 5, 30, 120, 360] as const;

/** 404 or 410 answers in a row after which an endpoint is shown broken (a Slack or Teams webhook revoked or archived). */
export const BROKEN_AFTER = 2;

/** Whether an answer says the webhook is gone (Slack: `no_service`, `channel_is_archived`; Teams: a deleted workflow). */
const isGone = (status: number) => status === 404 || status === 410;

export type ChatOutcome = 'delivered' | 'waiting' | 'retrying' | 'duplicate' | 'dropped' | 'failed';

/**
 * Sends one event to one chat endpoint, once: the message is composed (a failure to read throws, and the queue tries
 * again), then claimed (a redelivery of the queue's finds it claimed and sends nothing), then posted. A 2xx is
 * delivered; a 404 or 410 is counted towards the endpoint's broken mark and not retried; anything else is recorded as
 * failed and retried after the next wait. An endpoint the tenant no longer lists (or that no longer takes the event)
 * gets nothing.
 */
export async function deliverChat(delivery: ChatDelivery, ports: ChatDeliveryPorts, now = new Date()): Promise<ChatOutcome> {
  const { tenantId, url, event } = delivery;
  if (delivery.notBefore && Date.parse(delivery.notBefore) > now.getTime()) {
    await ports.requeue(delivery, Math.min(MAX_DELAY_SECONDS, Math.ceil((Date.parse(delivery.notBefore) - now.getTime()) / 1000)));
    return 'waiting';
  }
  const endpoint = await ports.endpoint(tenantId, url);
  if (!endpoint?.events.includes(event.type)) return 'dropped';
  const input = await ports.compose(tenantId, delivery, endpoint.comment);
  if (!input) return 'dropped';
  const id = deliveryId(event.id, url);
  if (!(await ports.claim(tenantId, id, delivery))) return 'duplicate';
  let error: string;
  let status = 0;
  try {
    status = await ports.post(url, JSON.stringify(chatMessage(endpoint.kind, input)));
    if (status >= 200 && status < 300) {
      if (endpoint.gone) await ports.recordAnswered(tenantId, url);
      return 'delivered';
    }
    error = `HTTP ${status}`;
  } catch (failure) {
    const name = failure instanceof Error ? failure.name : '';
    error = name === 'TimeoutError' ? 'timeout' : name === 'NotPublicAddress' ? 'not a public host' : 'unreachable';
  }
  const gone = isGone(status);
  if (gone) await ports.recordGone(tenantId, url);
  const wait = delivery.replay || gone ? undefined : CHAT_RETRY_MINUTES[delivery.attempt - 1];
  const next = wait === undefined ? undefined : new Date(now.getTime() + wait * 60_000);
  await ports.recordFailure(
    tenantId,
    {
      id,
      event_id: event.id,
      type: event.type,
      url,
      attempt: delivery.attempt,
      failed_at: now.toISOString(),
      error,
      next_attempt_at: next?.toISOString() ?? null,
    },
    delivery,
  );
  if (!next) return 'failed';
  await ports.requeue(
    { ...delivery, attempt: delivery.attempt + 1, notBefore: next.toISOString() },
    Math.min(MAX_DELAY_SECONDS, wait! * 60),
  );
  return 'retrying';
}

/** What composing a case's message reads: the tenant's language and zone, the names shown, the case's comment. */
export interface ChatComposePorts {
  settings(tenantId: number): Promise<Settings>;
  /** The names of a tenant's stores and employees, as the case alerts read them. */
  names: {
    store(tenantId: number, storeId: number): Promise<string>;
    employee(tenantId: number, employeeId: number): Promise<string>;
  };
  /** The case's comment as it stands (null when none, or erased); undefined when the case is gone. */
  comment(tenantId: number, caseId: number): Promise<string | null | undefined>;
  /** The base URL of the workspace's links. */
  readonly baseUrl: string;
}

const number = (value: unknown) => (typeof value === 'number' ? value : undefined);

/** The words of a delivery's message: a case event's from its data, names and (when shown) comment; a digest's or a score drop's as queued. */
export function chatComposer(ports: ChatComposePorts) {
  return async (tenantId: number, { event }: ChatDelivery, withComment: boolean): Promise<ChatMessageInput | undefined> => {
    const settings = await ports.settings(tenantId);
    const locale = settings.locale ?? DEFAULT_LOCALE;
    if (event.type === 'digest' || event.type === 'score.drop')
      return { type: event.type, locale, ...(event.data as unknown as ChatDigest) };
    const [caseId, storeId, employeeId, score] = ['case_id', 'store_id', 'employee_id', 'score'].map((field) => number(event.data[field]));
    if (caseId === undefined || storeId === undefined || employeeId === undefined || score === undefined) return undefined;
    const [store, employee, comment] = await Promise.all([
      ports.names.store(tenantId, storeId),
      ports.names.employee(tenantId, employeeId),
      withComment ? ports.comment(tenantId, caseId) : undefined,
    ]);
    if (withComment && comment === undefined) return undefined;
    const dueAt = typeof event.data.due_at === 'string' ? event.data.due_at : null;
    return {
      type: event.type,
      locale,
      number: number(event.data.case_number) ?? null,
      score,
      store,
      employee,
      // The customer's words, never their contact: an e-mail, card, CPF or phone typed in it is redacted.
      ...(withComment ? { comment: comment && redact(comment) } : {}),
      due: dueAt && timesOf(locale, timeZoneOf(settings)).when(dueAt),
      link: `${ports.baseUrl}${appCasePath(caseId)}`,
    };
  };
}
