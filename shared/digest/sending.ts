import type { UserRecord } from '../access/ports.js';
import { brandOf } from '../brand/brand.js';
import { signsIn } from '../cases/owner.js';
import { timeZoneOf } from '../locale.js';
import { logger } from '../logger.js';
import { APP_DIGEST_PATH } from '../session/paths.js';
import { mailbox } from '../surveys/delivery.js';
import type { Settings } from '../tenants/config-schema.js';
import type { TimerScheduler } from '../timers.js';
import { digestEmail } from './email.js';
import { digestDays, digestFigures, type DigestPeriod, type DigestPorts } from './figures.js';
import type { DigestMessage } from './schema.js';
import { DEFAULT_DIGEST } from './choices.js';

/**
 * Sending digests (issue 48): the tenant's scheduled run (a due timer, Monday 08:00 in its zone) or an admin's POST
 * queues one message per user who gets the period's digest; each message is claimed (a conditional put on the user and
 * period) before its e-mail, so a run that fires twice, or a POST made twice, sends each user one digest.
 */

/** A claim older than this is a crash's: the digest may be claimed again. */
export const DIGEST_CLAIM_SECONDS = 300;
/** The hour (in the tenant's zone) the scheduled digests go out. */
export const DIGEST_HOUR = 8;

/** One digest per user and period: a claim before the e-mail, then the mark that it went out. */
export interface DigestClaims {
  /** True for the one caller that may send: never sent, nor claimed in the last DIGEST_CLAIM_SECONDS. */
  claim(tenantId: number, user: string, period: DigestPeriod, from: string, now: Date): Promise<boolean>;
  sent(tenantId: number, user: string, period: DigestPeriod, from: string, now: Date): Promise<void>;
  /** Gives back this caller's claim (the e-mail failed: the message is retried). */
  release(tenantId: number, user: string, period: DigestPeriod, from: string, now: Date): Promise<void>;
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
}

/** Whether a user gets a period's digest: an enabled user who signs in with an e-mail and has not opted out. */
export function getsDigest(user: UserRecord, period: DigestPeriod): boolean {
  const choice = user.digest ?? DEFAULT_DIGEST;
  if (!signsIn(user.name) || user.disabled_at || choice === 'off') return false;
  return period === 'week' || choice === 'daily';
}

/** Queues the digest of the current period for every user who gets it; answers how many were queued. */
export async function queueDigests(ports: DigestSendingPorts, tenantId: number, period: DigestPeriod, now: Date): Promise<number> {
  const [users, settings] = await Promise.all([ports.users.list(tenantId), ports.figures.settings(tenantId)]);
  const { from } = digestDays(period, now, timeZoneOf(settings));
  const messages = users
    .filter((user) => getsDigest(user, period))
    .map((user): DigestMessage => ({ version: 1, tenantId, period, from, user: user.name }));
  if (messages.length) await ports.queue(messages);
  return messages.length;
}

/** The next time the weekly digest is due: the coming Monday at DIGEST_HOUR in `timeZone` (after `now`). */
export function nextDigestAt(now: Date, timeZone: string): Date {
  // The zone's offset at `now`, in minutes (a change of offset within the week moves the time by an hour at most).
  const local = new Date(now.toLocaleString('en-US', { timeZone }));
  const utc = new Date(now.toLocaleString('en-US', { timeZone: 'UTC' }));
  const offset = local.getTime() - utc.getTime();
  const target = new Date(now.getTime() + offset);
  const daysAhead = (8 - target.getUTCDay()) % 7;
  target.setUTCDate(target.getUTCDate() + daysAhead);
  target.setUTCHours(DIGEST_HOUR, 0, 0, 0);
  if (target.getTime() - offset <= now.getTime()) target.setUTCDate(target.getUTCDate() + 7);
  return new Date(target.getTime() - offset);
}

/** Parks the tenant's next scheduled weekly run (one timer per tenant and due time: parking it twice is one timer). */
export async function scheduleNextDigest(ports: Pick<DigestSendingPorts, 'timer'>, tenantId: number, settings: Settings, now: Date) {
  const dueAt = nextDigestAt(now, timeZoneOf(settings));
  const from = digestDays('week', dueAt, timeZoneOf(settings)).from;
  await ports.timer.schedule({ version: 1, tenantId, period: 'week', from }, dueAt, now);
}

export type DigestOutcome = 'queued' | 'sent' | 'duplicate' | 'nobody';

/** The digest queue's work for one message: a scheduled run fans out (and parks the next); a user's digest is sent once. */
export async function handleDigest(ports: DigestSendingPorts, message: DigestMessage, now: Date): Promise<DigestOutcome> {
  const { tenantId, period, from } = message;
  if (message.user === undefined) {
    await queueDigests(ports, tenantId, period, message.dueAt ? new Date(message.dueAt) : now);
    await scheduleNextDigest(ports, tenantId, await ports.figures.settings(tenantId), now);
    return 'queued';
  }
  const user = await ports.users.find(tenantId, message.user);
  if (!user || !getsDigest(user, period)) return 'nobody';
  if (!(await ports.claims.claim(tenantId, user.name, period, from, now))) return 'duplicate';
  try {
    await sendDigest(ports, tenantId, user, period, from);
  } catch (error) {
    await ports.claims.release(tenantId, user.name, period, from, now);
    throw error;
  }
  await ports.claims.sent(tenantId, user.name, period, from, now);
  return 'sent';
}

async function sendDigest(ports: DigestSendingPorts, tenantId: number, user: UserRecord, period: DigestPeriod, from: string) {
  const settings = await ports.figures.settings(tenantId);
  const sender = settings.delivery.email?.from;
  if (!sender) {
    logger.warn('A digest was not sent: the tenant has no e-mail sender', { tenantId });
    return;
  }
  // The period the message names, whenever it is read: a retry the next day still sends last week's digest.
  const figures = await digestFigures(
    { ...ports.figures, baseUrl: ports.baseUrl },
    { tenantId, period, now: periodEnd(period, from) },
    Promise.resolve(user),
  );
  const brand = brandOf(settings);
  const link = `${ports.baseUrl}${APP_DIGEST_PATH}?period=${period}`;
  const email = digestEmail({
    figures,
    company: brand.name,
    colour: brand.colour,
    locale: settings.locale ?? 'pt-BR',
    timeZone: timeZoneOf(settings),
    link,
  });
  await ports.email({
    from: mailbox(sender, brand.senderName),
    to: user.name,
    ...email,
    // The workspace's digest page holds the user's opt-out (the user's own setting, behind their sign-in).
    headers: [{ name: 'List-Unsubscribe', value: `<${link}>` }],
  });
}

/** A moment inside the period after the one starting `from`, at noon UTC: the digest of `from`'s period, whatever the zone. */
const periodEnd = (period: DigestPeriod, from: string) =>
  new Date(Date.parse(`${from}T12:00:00Z`) + (period === 'week' ? 7 : 1) * 86_400_000);
