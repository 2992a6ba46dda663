import type { UserRecord } from '../access/ports.js';
import { withRegionStores } from '../access/user-scope.js';
import { brandOf } from '../brand/brand.js';
import { signsIn } from '../cases/owner.js';
import { timeZoneOf } from '../locale.js';
import { logger } from '../logger.js';
import { APP_DIGEST_PATH } from '../session/paths.js';
import { digestUnsubscribePath } from './paths.js';
import { mailbox } from '../mailbox.js';
import type { Settings } from '../settings/settings.js';
import type { TimerScheduler } from '../timers/timers.js';
import { digestEmail } from './email.js';
import { digestDays, digestFigures, localDay, type DigestPeriod, type DigestPorts } from './figures.js';
import type { DigestMessage } from './schema.js';
import { DEFAULT_DIGEST, DIGESTS_DEFAULTS } from './choices.js';
import { MAX_DELAY_SECONDS } from '../queues.js';
import type { ChatDelivery } from '../chat/ports.js';
import { digestChat, digestChatDelivery, digestEndpoints, endpointReader } from './chat.js';

/**
 * Sending digests (issue 48): the tenant's scheduled run (a due timer, every day at 08:00 in its zone) or an admin's POST
 * queues one message per user who gets the period's digest; each message is claimed (a conditional put on the user and
 * period) before its e-mail, so a run that fires twice, or a POST made twice, sends each user one digest.
 */

/** A claim older than this is a crash's: the digest may be claimed again. */
export const DIGEST_CLAIM_SECONDS = 300;
/** The hour (in the tenant's zone) the scheduled digests go out. */
export const DIGEST_HOUR = 8;

/** A user's digest of one period, the period starting on the day `from`. */
export interface DigestOfUser {
  user: string;
  period: DigestPeriod;
  from: string;
}

/** One digest per user and period: a claim before the e-mail, then the mark that it went out. */
export interface DigestClaims {
  /** True for the one caller that may send: never sent, nor claimed in the last DIGEST_CLAIM_SECONDS. */
  claim(tenantId: number, digest: DigestOfUser, now: Date): Promise<boolean>;
  sent(tenantId: number, digest: DigestOfUser, now: Date): Promise<void>;
  /** Gives back this caller's claim (the e-mail failed: the message is retried). */
  release(tenantId: number, digest: DigestOfUser, now: Date): Promise<void>;
}

export interface DigestEmailMessage {
  from: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  headers: { name: string; value: string }[];
}

export interface DigestSendingPorts {
  figures: Omit<DigestPorts, 'baseUrl'>;
  /** The tenant's users (one Query of their collection) and one of them. */
  users: { list(tenantId: number): Promise<UserRecord[]>; find(tenantId: number, name: string): Promise<UserRecord | undefined> };
  claims: DigestClaims;
  queue(messages: DigestMessage[]): Promise<void>;
  email(message: DigestEmailMessage): Promise<void>;
  /** The tenant's next scheduled run, parked as a due timer. */
  timer: TimerScheduler<DigestMessage>;
  /** The public API's base URL: the workspace's links. */
  baseUrl: string;
  /** The token of a user's one-click unsubscribe link (signed with the survey secret: shared/digest/unsubscribe.ts). */
  unsubscribeToken(tenantId: number, name: string): string;
  /** Queues a message to one chat endpoint (the chat queue: claimed there once per event and endpoint). */
  chat(delivery: ChatDelivery): Promise<void>;
}

/**
 * Whether a user gets a period's digest: an enabled user who signs in with an e-mail and has not opted out; the daily
 * one only when the tenant has it on (`digests.daily`) and the user chose it.
 */
export function getsDigest(user: UserRecord, period: DigestPeriod, settings: Pick<Settings, 'digests'>): boolean {
  const choice = user.digest ?? DEFAULT_DIGEST;
  if (!signsIn(user.name) || user.disabled_at || choice === 'off') return false;
  return period === 'week' || (choice === 'daily' && (settings.digests?.daily ?? DIGESTS_DEFAULTS.daily));
}

/**
 * Queues the digests of the current `periods` for every user who gets them, and for every chat endpoint that takes the
 * digest; answers how many users' were queued.
 */
export async function queueDigests(
  ports: DigestSendingPorts,
  tenantId: number,
  { periods, now }: { periods: DigestPeriod[]; now: Date },
): Promise<number> {
  // A morning with nothing to send (no Monday, no daily digests) reads no user.
  if (!periods.length) return 0;
  const [users, settings] = await Promise.all([ports.users.list(tenantId), ports.figures.settings(tenantId)]);
  const messages = periods.flatMap((period) => {
    const { from } = digestDays(period, now, timeZoneOf(settings));
    return users
      .filter((user) => getsDigest(user, period, settings))
      .map((user): DigestMessage => ({ version: 1, tenantId, period, from, user: user.name }));
  });
  const chats = periods.flatMap((period) => {
    const { from } = digestDays(period, now, timeZoneOf(settings));
    return digestEndpoints(settings).map((endpoint): DigestMessage => ({ version: 1, tenantId, period, from, chat: endpoint.url }));
  });
  if (messages.length || chats.length) await ports.queue([...messages, ...chats]);
  return messages.length;
}

/** The next scheduled run: the first DIGEST_HOUR o'clock in `timeZone` after `now`. */
export function nextRunAt(now: Date, timeZone: string): Date {
  // The zone's offset at `now`, in minutes (a change of offset overnight moves the time by an hour at most).
  const local = new Date(now.toLocaleString('en-US', { timeZone }));
  const utc = new Date(now.toLocaleString('en-US', { timeZone: 'UTC' }));
  const offset = local.getTime() - utc.getTime();
  const target = new Date(now.getTime() + offset);
  target.setUTCHours(DIGEST_HOUR, 0, 0, 0);
  if (target.getTime() - offset <= now.getTime()) target.setUTCDate(target.getUTCDate() + 1);
  return new Date(target.getTime() - offset);
}

/**
 * What a scheduled run due at `at` queues: every morning the daily digests when the tenant has them on, and on Monday
 * the weekly ones. A run parked as `week` (before runs were daily) queues the weekly ones.
 */
export function runPeriods(run: DigestPeriod, at: Date, settings: Settings): DigestPeriod[] {
  if (run === 'week') return ['week'];
  const monday = new Date(`${localDay(at, timeZoneOf(settings))}T00:00:00Z`).getUTCDay() === 1;
  return [...(monday ? ['week' as const] : []), ...(settings.digests?.daily ? ['day' as const] : [])];
}

/**
 * Parks the tenant's next scheduled run, the next 08:00 in its zone (or the first after `notBefore`): one timer per
 * tenant and morning, so parking it twice, from a run, a POST or the tenant's creation, is one timer.
 */
export async function scheduleNextRun(
  ports: Pick<DigestSendingPorts, 'timer'>,
  tenantId: number,
  { settings, now, notBefore = now }: { settings: Settings; now: Date; notBefore?: Date },
) {
  const dueAt = nextRunAt(notBefore, timeZoneOf(settings));
  const from = digestDays('day', dueAt, timeZoneOf(settings)).from;
  await ports.timer.schedule({ version: 1, tenantId, period: 'day', from }, dueAt, now);
}

/**
 * A new tenant's first run (the operator's create-tenant and apply): parked more than the queue's delay ahead, so that
 * it waits in the table and the operator's command needs no queue.
 */
export const scheduleFirstRun = (
  ports: Pick<DigestSendingPorts, 'timer'>,
  tenantId: number,
  { settings, now }: { settings: Settings; now: Date },
) => scheduleNextRun(ports, tenantId, { settings, now, notBefore: new Date(now.getTime() + (MAX_DELAY_SECONDS + 60) * 1000) });

export type DigestOutcome = 'queued' | 'sent' | 'duplicate' | 'nobody';

/**
 * The digest queue's work for one message: a scheduled run fans out (and parks the next); a user's digest is sent once;
 * a chat endpoint's is queued to the chat, which sends it once.
 */
export async function handleDigest(ports: DigestSendingPorts, message: DigestMessage, now: Date): Promise<DigestOutcome> {
  const { tenantId, period, from } = message;
  if (message.chat !== undefined) return sendChatDigest(ports, tenantId, { url: message.chat, period, from, now });
  if (message.user === undefined) {
    const settings = await ports.figures.settings(tenantId);
    const at = message.dueAt ? new Date(message.dueAt) : now;
    await queueDigests(ports, tenantId, { periods: runPeriods(period, at, settings), now: at });
    await scheduleNextRun(ports, tenantId, { settings, now });
    return 'queued';
  }
  const user = await ports.users.find(tenantId, message.user);
  // The daily switch is read for a daily digest only: a weekly one's duplicate reads the user and its claim alone.
  if (!user || !getsDigest(user, period, period === 'day' ? await ports.figures.settings(tenantId) : {})) return 'nobody';
  const digest = { user: user.name, period, from };
  if (!(await ports.claims.claim(tenantId, digest, now))) return 'duplicate';
  try {
    await sendDigest(ports, tenantId, { user, period, from, now });
  } catch (error) {
    await ports.claims.release(tenantId, digest, now);
    throw error;
  }
  await ports.claims.sent(tenantId, digest, now);
  return 'sent';
}

/**
 * A period's digest to one chat endpoint, for its stores: queued to the chat queue under the period's id, where it is
 * claimed once per endpoint (a second run's message finds it claimed). An endpoint no longer taking it gets nothing.
 */
async function sendChatDigest(
  ports: DigestSendingPorts,
  tenantId: number,
  { url, period, from, now }: { url: string; period: DigestPeriod; from: string; now: Date },
): Promise<DigestOutcome> {
  const settings = await ports.figures.settings(tenantId);
  const endpoint = digestEndpoints(settings).find((e) => e.url === url);
  if (!endpoint) return 'nobody';
  const figures = await digestFigures(
    { ...ports.figures, baseUrl: ports.baseUrl },
    { tenantId, period, now: periodEnd(period, from), readAt: now },
    Promise.resolve(endpointReader(endpoint)),
  );
  const digest = digestChat({
    figures,
    company: brandOf(settings).name,
    locale: settings.locale ?? 'pt-BR',
    timeZone: timeZoneOf(settings),
    link: digestLink(ports.baseUrl, period, figures),
  });
  await ports.chat(digestChatDelivery(tenantId, { url, period, from, digest, now }));
  return 'sent';
}

async function sendDigest(
  ports: DigestSendingPorts,
  tenantId: number,
  { user, period, from, now }: { user: UserRecord; period: DigestPeriod; from: string; now: Date },
) {
  const settings = await ports.figures.settings(tenantId);
  const sender = settings.delivery.email?.from;
  if (!sender) {
    logger.warn('A digest was not sent: the tenant has no e-mail sender', { tenantId });
    return;
  }
  // The period the message names, whenever it is read: a retry the next day still sends last week's digest; the cases'
  // ages as they are when it is sent. The user's regions are resolved to their stores as a request's are
  // (docs/regions.md): the stored scope names regions only.
  const figures = await digestFigures(
    { ...ports.figures, baseUrl: ports.baseUrl },
    { tenantId, period, now: periodEnd(period, from), readAt: now },
    Promise.resolve({ ...user, scope: withRegionStores(user.scope, settings.regions ?? []) }),
  );
  const brand = brandOf(settings);
  const link = digestLink(ports.baseUrl, period, figures);
  const unsubscribe = `${ports.baseUrl}${digestUnsubscribePath(ports.unsubscribeToken(tenantId, user.name))}`;
  const email = digestEmail({
    figures,
    company: brand.name,
    colour: brand.colour,
    locale: settings.locale ?? 'pt-BR',
    timeZone: timeZoneOf(settings),
    link,
    unsubscribe,
  });
  await ports.email({
    from: mailbox(sender, brand.senderName),
    to: user.name,
    ...email,
    // RFC 8058 one-click unsubscribe: mail clients POST to the link, which names no one.
    headers: [
      { name: 'List-Unsubscribe', value: `<${unsubscribe}>` },
      { name: 'List-Unsubscribe-Post', value: 'List-Unsubscribe=One-Click' },
    ],
  });
}

/**
 * The workspace's page of the same digest: its own days (`from`, `to`), not the period of whenever it is opened (a
 * week's e-mail read the next Monday would show the week after).
 */
export const digestLink = (base: string, period: DigestPeriod, { from, to }: { from: string; to: string }) =>
  `${base}${APP_DIGEST_PATH}?${new URLSearchParams({ period, from, to }).toString()}`;

/** A moment inside the period after the one starting `from`, at noon UTC: the digest of `from`'s period, whatever the zone. */
const periodEnd = (period: DigestPeriod, from: string) =>
  new Date(Date.parse(`${from}T12:00:00Z`) + (period === 'week' ? 7 : 1) * 86_400_000);
