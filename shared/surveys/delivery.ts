import { mailbox } from '../mailbox.js';
import { tenantEvent } from '../events/events.js';
import { journeyTally, sentTally } from '../results/tally.js';
import { logger } from '../logger.js';
import { count } from '../metrics.js';
import type { JourneyConfig } from '../settings/journeys.js';
import type { Settings } from '../settings/settings.js';
import { firstName, recoveryEmail, recoverySms, surveyEmail, surveySms, type SurveyBrand } from './compose.js';
import { afterItsDay } from '../local-day.js';
import { DEFAULT_LOCALE, timeZoneOf, type Locale } from '../locale.js';
import { translator } from '../i18n/messages.js';
import { brandOf } from '../brand/brand.js';
import type { DispatchMessage } from './dispatch.js';
import { signSurveyLink, surveyUrl } from './link.js';
import { nextAttempt, quietUntil } from './attempts.js';
import { CHANNEL_RECORDS, heldByQuietHours, type ChannelRecord } from '../channels.js';
import { DeliveryRefused, type AttemptKey, type ClaimedAttempt, type DeliveryPorts, type NextAttempt, type Sent } from './ports.js';
import { CHATBOT_ENDPOINT, signingSecrets, webhookHeaders } from '../events/signature.js';
import { unsubscribeOf } from './paths.js';

/**
 * Survey delivery: one dispatch message becomes one message to the customer (or one webhook to the tenant's
 * chatbot), once. The attempt is claimed with a conditional write before the provider is called, so a redelivered
 * message, a retried batch or a resent transaction finds it taken and sends nothing.
 */

export interface DeliveryConfig {
  /** Signs survey links and derives each webhook endpoint's signing secret. */
  surveySecret: string;
  /** The public API's base URL: links open `<base>/s/<token>`. */
  baseUrl: string;
}

/**
 * How long a claim holds. A delivery that crashed between its claim and its result leaves the claim; the next
 * delivery of the message (after the queue's visibility timeout, 180 s) may take it once it has lapsed.
 */
export const CLAIM_LEASE_SECONDS = 120;

export type DeliveryOutcome = 'sent' | 'duplicate' | 'failed' | 'missing' | 'held' | 'expired';

/** The claim is held by another delivery in flight (or the attempt before it is): the message goes back to the queue. */
export class AttemptBusy extends Error {
  override name = 'AttemptBusy';
}

/**
 * Delivers one attempt, at most once: held until its due time or the end of the tenant's quiet hours; dropped once
 * the survey is answered, expired or the customer opted out; sent on its channel; then the next attempt of the plan
 * is scheduled (after its wait when this one was sent, at once when this one could not reach the customer).
 */
export async function deliverSurvey({
  message,
  ports,
  config,
  now = new Date(),
}: {
  message: DispatchMessage;
  ports: DeliveryPorts & { settings: (tenantId: number) => Promise<Settings> };
  config: DeliveryConfig;
  now?: Date;
}): Promise<DeliveryOutcome> {
  if (message.dueAt && Date.parse(message.dueAt) > now.getTime() + EARLY_TOLERANCE_MS) {
    await ports.scheduler.schedule(message, new Date(message.dueAt), now);
    return 'held';
  }
  const key: AttemptKey = {
    ...(message.kind ? { kind: message.kind } : {}),
    tenantId: message.tenantId,
    transactionId: message.transactionId,
    attemptId: message.attemptId,
  };
  // A recovery survey's one attempt is kept apart from the first survey's attempts, with the same promises.
  const attempts = message.kind === 'recovery' ? ports.recoveries : ports.attempts;
  if (!attempts) throw new Error('This delivery cannot send recovery surveys.');
  const claim = await attempts.claim(key, { now, leaseSeconds: CLAIM_LEASE_SECONDS, channel: message.channel });
  if (claim.status === 'done') return 'duplicate';
  if (claim.status === 'missing') return 'missing';
  if (claim.status === 'busy') throw new AttemptBusy('The survey attempt is being sent by another delivery.');
  const attempt = claim.attempt;
  const plan = attempt.plan ?? [];
  // A change after the registration's day (its zone's) marks that day for the analytics export: its surveys row changes.
  let zone: string | undefined;
  const analyticsMark = () =>
    !attempt.kind && attempt.registeredAt && zone && afterItsDay(attempt.registeredAt, now, zone) ? attempt.registeredAt : undefined;
  const schedule = async (next: NextAttempt | undefined) => {
    if (next) await ports.scheduler.schedule(dispatchOf(message, next), next.dueAt, now);
  };
  const fail = async (reason: 'refused' | 'not_configured' | 'opted_out' | 'undeliverable', detail: string) => {
    // An opt-out ends the survey; any other failure passes the turn to the next attempt at once.
    const next = reason === 'opted_out' ? undefined : nextAttempt({ plan, current: attempt.attemptId, from: now, immediately: true });
    await schedule(next);
    await attempts.markFailed(attempt, { reason, detail, next, analyticsMark: analyticsMark() });
    if (!attempt.kind)
      await ports.events?.publish(
        attempt.tenantId,
        tenantEvent(attempt.tenantId, {
          type: 'survey.failed',
          subject: `${attempt.transactionId}/${attempt.attemptId}`,
          data: {
            transaction_id: attempt.transactionId,
            attempt_id: attempt.attemptId,
            journey_id: attempt.journeyId,
            store_id: attempt.storeId,
            channel: attempt.channel,
            reason,
            next_attempt_id: next?.attemptId ?? null,
          },
          at: now,
        }),
      );
    count('SurveysFailed', attempt.channel);
    logger.debug('Survey not delivered', { ...key, channel: attempt.channel, reason, next: next?.attemptId });
    return 'failed' as const;
  };
  try {
    if (attempt.expiresAt && Date.parse(attempt.expiresAt) <= now.getTime()) {
      await attempts.release(attempt);
      logger.debug('Survey attempt not sent: the survey expired', { ...key });
      return 'expired';
    }
    const [settings, reach] = await Promise.all([
      ports.settings(key.tenantId),
      ports.reachability.check(key.tenantId, { customerId: attempt.customerId, contact: attempt.contact }),
    ]);
    zone = timeZoneOf(settings);
    if (reach === 'erased') {
      // As the claim does for an erased transaction: nothing is sent, nothing more is planned; the erasure strips it.
      await attempts.release(attempt);
      logger.debug('Survey attempt not sent: the customer was erased', { ...key });
      return 'missing';
    }
    if (reach !== 'ok') return await fail(reach, reach === 'opted_out' ? 'the customer opted out' : 'the address is known to bounce');
    const journey = settings.journeys.find((j) => j.id === attempt.journeyId);
    if (!journey) return await fail('not_configured', 'the journey no longer exists');
    // The tenant's brand; a tenant that names none (made before brands) signs with the store's name.
    const tenantName = settings.brand?.name ? undefined : await ports.stores.tradeName(key.tenantId, attempt.storeId);
    const brand: SurveyBrand = brandOf(settings, { tenantName, baseUrl: config.baseUrl });
    // Every attempt's link lapses with the survey: its validity counts from the first attempt sent.
    const expiresAt = attempt.expiresAt ? new Date(attempt.expiresAt) : new Date(now.getTime() + journey.surveyValidityDays * 86_400_000);
    const token = signSurveyLink(
      { ...key, channel: attempt.channel, expiresAt: Math.floor(expiresAt.getTime() / 1000) },
      config.surveySecret,
    );
    const link = surveyUrl(config.baseUrl, token);
    const content = { brand, link, locale: attempt.locale ?? DEFAULT_LOCALE, kind: attempt.kind ?? 'survey' } as const;
    const send = sender({ attempt, journey, settings, content, ports, config, now });
    if (typeof send === 'string') return await fail('not_configured', send);
    const until = heldByQuietHours(attempt.channel) ? quietUntil(settings.delivery.quietHours, now, zone) : undefined;
    if (until) {
      await ports.scheduler.schedule({ ...message, dueAt: until.toISOString() }, until, now);
      await attempts.release(attempt, until);
      count('SurveyAttemptsHeld', attempt.channel);
      logger.debug('Survey attempt held for quiet hours', { ...key, channel: attempt.channel, until: until.toISOString() });
      return 'held';
    }
    const sent = await send();
    const next = nextAttempt({ plan, current: attempt.attemptId, from: now });
    // Scheduled before the attempt is marked sent: a crash in between leaves a message that waits for the mark.
    await schedule(next);
    // A survey counts as sent once, with its first attempt (the one that sets when its links lapse).
    const tally =
      attempt.expiresAt === undefined && !attempt.kind ? journeyTally(journey, sentTally(attempt, now, journey.classes)) : undefined;
    await attempts.markSent(attempt, { messageId: sent.messageId, at: now, expiresAt, next, tally, analyticsMark: analyticsMark() });
    count('SurveysSent', attempt.channel);
    count('SurveyAttemptsSent', String(attempt.attemptId));
    logger.debug('Survey sent', { ...key, channel: attempt.channel, handedOff: handsOff(journey, attempt.channel), next: next?.attemptId });
    return 'sent';
  } catch (error) {
    if (error instanceof DeliveryRefused) return await fail('refused', error.detail);
    // Throttling, a provider's 5xx, a timeout: give the claim back and let the queue retry.
    await attempts.release(attempt).catch(() => undefined);
    throw error;
  }
}

/** A message may arrive this early (clocks, the queue's own rounding) and still go out now. */
const EARLY_TOLERANCE_MS = 2000;

/** The dispatch message of the next attempt: same survey, its own attempt, channel and due time. */
const dispatchOf = (message: DispatchMessage, next: NextAttempt): DispatchMessage => ({
  ...message,
  attemptId: next.attemptId,
  channel: next.channel,
  dueAt: next.dueAt.toISOString(),
});

/** The provider call for this attempt, or why the tenant's configuration cannot send it. */
function sender({
  attempt,
  journey,
  settings,
  content,
  ports,
  config,
  now,
}: {
  attempt: ClaimedAttempt;
  journey: JourneyConfig;
  settings: Settings;
  content: Content;
  ports: DeliveryPorts;
  config: DeliveryConfig;
  now: Date;
}): (() => Promise<Sent>) | string {
  const { delivery } = settings;
  const channel = attempt.channel;
  // A recovery survey is answered on its page, never through the chatbot: it goes out on the channel itself.
  if (content.kind === 'survey' && handsOff(journey, channel)) {
    if (!delivery.chatbot) return 'the tenant has no chatbot webhook';
    const body = JSON.stringify({
      transactionId: attempt.transactionId,
      attemptId: attempt.attemptId,
      journey: journey.slug,
      source: channel,
      customerFirstName: firstName(attempt.customerName),
      phone: attempt.contact,
    });
    // Signed with the hand-off's own secret: an event endpoint's secret cannot forge a hand-off.
    const secrets = signingSecrets({
      rootSecret: config.surveySecret,
      tenantId: attempt.tenantId,
      endpoint: CHATBOT_ENDPOINT,
      generations: delivery.signing?.[CHATBOT_ENDPOINT],
      now,
    });
    const id = `attempt_${attempt.tenantId}_${attempt.transactionId}_${attempt.attemptId}`;
    return () =>
      ports.senders.webhook({
        url: delivery.chatbot!.url,
        body,
        headers: { 'content-type': 'application/json', ...webhookHeaders({ secrets, id, body, now }) },
      });
  }
  const via = CHANNEL_RECORDS[channel].sender;
  if (via === null)
    return `${CHANNEL_RECORDS[channel].label} surveys are handed to the tenant chatbot: list ${channel} in the journey handOff`;
  return OUTBOUND[via]({ attempt, journey, settings, content, ports });
}

type Outbound = (message: {
  attempt: ClaimedAttempt;
  journey: JourneyConfig;
  settings: Settings;
  content: Content;
  ports: DeliveryPorts;
}) => (() => Promise<Sent>) | string;

/** Each sender's message (its words from `compose.ts`), or why the tenant's configuration cannot send it; a channel's record names its sender. */
const OUTBOUND: { [S in NonNullable<ChannelRecord['sender']>]: Outbound } = {
  email({ attempt, journey, settings, content, ports }) {
    const { delivery } = settings;
    if (!delivery.email) return 'the tenant has no e-mail sender';
    const unsubscribeLink = unsubscribeOf(content.link);
    const words = {
      customerName: attempt.customerName,
      brand: content.brand,
      journey,
      locale: content.locale,
      link: content.link,
      unsubscribeLink,
    };
    const { subject, html, text } = content.kind === 'recovery' ? recoveryEmail(words) : surveyEmail(words);
    return () =>
      ports.senders.email({
        // The tenant's brand names the sender (brand.senderName, else delivery.email.name, else the brand's name).
        from: mailbox(delivery.email!.from, brandOf(settings).senderName),
        to: attempt.contact,
        subject,
        html,
        text,
        // RFC 8058 one-click unsubscribe: mail clients POST to the link.
        headers: [
          { name: 'List-Unsubscribe', value: `<${unsubscribeLink}>` },
          { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
        ],
        tags: {
          tenant: String(attempt.tenantId),
          customer: String(attempt.customerId),
          transaction: String(attempt.transactionId),
          attempt: String(attempt.attemptId),
        },
      });
  },
  sms({ attempt, settings: { delivery }, content, ports }) {
    if (!delivery.sms) return 'the tenant has no SMS origination identity';
    return () =>
      ports.senders.sms({
        to: attempt.contact,
        text: (content.kind === 'recovery' ? recoverySms : surveySms)({
          company: content.brand.name,
          link: content.link,
          locale: content.locale,
        }),
        originationIdentity: delivery.sms!.originationIdentity,
      });
  },
  whatsapp({ attempt, settings: { delivery }, content, ports }) {
    if (!delivery.whatsapp) return 'the tenant has no WhatsApp number';
    // The template approved in the survey's language, else the tenant's default one.
    const { template, language } = delivery.whatsapp.templates?.[content.locale] ?? delivery.whatsapp;
    const customer = firstName(attempt.customerName) || translator(content.locale)('whatsapp.customer');
    return () =>
      ports.senders.whatsapp({
        to: attempt.contact,
        phoneNumberId: delivery.whatsapp!.phoneNumberId,
        template,
        language,
        parameters: [customer, content.brand.name, content.link],
      });
  },
};

/** What a message says beyond the attempt: the tenant's brand, the survey's link and its language. */
interface Content {
  brand: SurveyBrand;
  link: string;
  locale: Locale;
  /** Which survey the message asks: the journey's, or the recovery survey's "Did we solve it?". */
  kind: 'survey' | 'recovery';
}

/** Whether the journey hands this channel's attempts to the tenant's chatbot. */
const handsOff = (journey: JourneyConfig, channel: ClaimedAttempt['channel']) => (journey.handOff as readonly string[]).includes(channel);
