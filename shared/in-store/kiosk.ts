import { randomBytes } from 'node:crypto';
import type { AuditActor, AuditLog } from '../audit/log.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { DAY_MS } from '../dates.js';
import { localeOfRequest } from '../i18n/messages.js';
import { timeZoneOf } from '../locale.js';
import type { QrPorts, QrStore } from './ports.js';
import {
  answerEntry,
  entryForm,
  entryThanks,
  openEntry,
  placeProblems,
  secondsUntil,
  type AskedLanguages,
  type EntryRequest,
} from './entry.js';
import { isPage, told, type Page } from '../surveys/page.js';
import { PLAIN_POLICY } from '../surveys/page-html.js';
import type { Settings } from '../settings/settings.js';
import { KIOSK_COOKIE, KIOSK_ENTRY_PATH, KIOSK_PAGE_LINK, KIOSK_SELF_LINK } from './kiosk-paths.js';
import type { KioskRecord, KioskStore } from './kiosk-ports.js';
import { KIOSK_DAILY_CAP, type KioskView, type NewKioskBody, type RegisteredKioskView } from './kiosk-schema.js';
import { isKioskToken, kioskTokenHash as hashOf, newKioskToken, readKioskToken } from './kiosk-token.js';

/**
 * A kiosk: a tablet in a store whose answers become transactions of source `kiosk` on its store, journey and employee.
 * An admin registers it (its device token shown once, stored as a hash) and may revoke it, refused from its next
 * request. A shared device, so no per-browser bound as a QR code's: a bound per device instead, `KIOSK_ANSWER_LIMIT`.
 */
export const KIOSK_ANSWER_LIMIT = { answers: 6, windowSeconds: 30 } as const;
/**
 * A kiosk's day for its daily cap: the day's number (days since 1970-01-01 of the date in the tenant's zone) and when
 * its counter may go (a day after the date's end in any zone: the item's TTL, not the bound).
 */
export function kioskDay(now: Date, zone: string): { window: number; endsAt: number } {
  // en-CA writes a date as YYYY-MM-DD.
  const window = Date.parse(new Intl.DateTimeFormat('en-CA', { timeZone: zone }).format(now)) / DAY_MS;
  return { window, endsAt: (window + 2) * DAY_MS };
}
/** The whole seconds from `now` to the next midnight in `zone` (a day of 24 hours: within an hour on a DST change). */
export function secondsToNextDay(now: Date, zone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    hourCycle: 'h23',
  })
    .formatToParts(now)
    .map((part) => [part.type, Number(part.value)] as const);
  const of = Object.fromEntries(parts) as Record<string, number>;
  return Math.max(1, 86_400 - ((of.hour ?? 0) * 3600 + (of.minute ?? 0) * 60 + (of.second ?? 0)));
}
/** The counter of a kiosk's day, which its daily cap bounds. */
const kioskDayCounter = (tenantId: number, { kioskId, now, zone }: { kioskId: string; now: Date; zone: string }) => ({
  tenantId,
  tokenHash: kioskId,
  addressHash: 'kiosk-day',
  ...kioskDay(now, zone),
});

/** The answers each of the tenant's kiosks took today (in its zone), by kiosk id: one BatchGetItem of their day counters. */
export async function kioskAnswersToday(
  tenantId: number,
  { ids, zone, ports, now = new Date() }: { ids: string[]; zone: string; ports: { limits: Pick<QrStore, 'counted'> }; now?: Date },
): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const counted = await ports.limits.counted(ids.map((id) => kioskDayCounter(tenantId, { kioskId: id, now, zone })));
  return new Map(ids.map((id, at) => [id, counted[at] ?? 0]));
}
/** How long the tablet's cookie keeps its device token: 400 days, the longest a browser keeps one. */
const COOKIE_SECONDS = 400 * 86_400;
/** How long the thanks shows before the kiosk returns to its start. */
export const KIOSK_THANKS_SECONDS = 10;

export interface KioskAdminPorts {
  settings(tenantId: number): Promise<Settings>;
  place: QrPorts['place'];
  kiosks: KioskStore;
  audit: AuditLog;
}

export interface KioskPorts extends QrPorts {
  kiosks: Pick<KioskStore, 'find'>;
}

// ---- The admin's side ----------------------------------------------------------------------------------------------

const viewOf = ({ journeyId: _journeyId, tokenHash: _tokenHash, ...view }: KioskRecord): KioskView => view;

async function audited(
  tenantId: number,
  {
    ports,
    actor,
    action,
    old,
    now,
    view,
  }: { ports: KioskAdminPorts; actor: AuditActor; action: 'kiosk.register' | 'kiosk.revoke'; old: unknown; now: Date; view: KioskView },
) {
  await ports.audit.record(tenantId, {
    id: randomBytes(6).toString('hex'),
    at: now.toISOString(),
    actor,
    action,
    changes: [{ path: `kiosks[id=${view.id}]`, old, new: view }],
  });
}

/**
 * POST /public/admin/kiosks: a new kiosk, its token and the address the tablet opens once in this answer only; refused
 * (naming each) for an unknown journey, a store that is unknown or inactive, an employee who does not work at it.
 */
export async function registerKiosk(
  tenantId: number,
  {
    body,
    actor,
    ports,
    baseUrl,
    now = new Date(),
  }: { body: NewKioskBody; actor: AuditActor; ports: KioskAdminPorts; baseUrl: string; now?: Date },
): Promise<RegisteredKioskView> {
  const [settings, place] = await Promise.all([ports.settings(tenantId), ports.place(tenantId, body.store, body.employee)]);
  const journey = settings.journeys.find((j) => j.slug === body.journey);
  const placed = placeProblems(body, place);
  const problems = [
    ...placed.filter((p) => p.path === 'store'),
    ...(journey ? [] : [{ path: 'journey', message: 'is not a journey of this tenant' }]),
    ...placed.filter((p) => p.path !== 'store'),
  ];
  if (!journey || problems.length) throw new ValidationError('Unknown or inactive store, journey or employee.', problems);
  const { token, id } = newKioskToken(tenantId);
  const record: KioskRecord = {
    id,
    name: body.name,
    store: body.store,
    journey: journey.slug,
    journeyId: journey.id,
    employee: body.employee ?? null,
    daily_cap: body.daily_cap ?? KIOSK_DAILY_CAP.default,
    created_at: now.toISOString(),
    revoked_at: null,
    tokenHash: hashOf(token),
  };
  await ports.kiosks.insert(tenantId, record);
  const view = viewOf(record);
  await audited(tenantId, { ports, actor, action: 'kiosk.register', old: null, now, view });
  return { ...view, token, url: `${baseUrl.replace(/\/+$/, '')}${KIOSK_ENTRY_PATH.replace('{token}', token)}` };
}

/** GET /public/admin/kiosks: the tenant's kiosks, oldest first; never a token. */
export const listKiosks = async (tenantId: number, ports: Pick<KioskAdminPorts, 'kiosks'>) =>
  (await ports.kiosks.list(tenantId)).map(viewOf);

/** DELETE /public/admin/kiosks/{id}: refused from the kiosk's next request (410); revoking again answers the same. */
export async function revokeKiosk(
  tenantId: number,
  { id, actor, ports, now = new Date() }: { id: string; actor: AuditActor; ports: KioskAdminPorts; now?: Date },
) {
  const revoked = await ports.kiosks.revoke(tenantId, id, now.toISOString());
  if (!revoked) throw new NotFoundError(`Kiosk ${id} not found.`);
  const view = viewOf(revoked);
  // Revoked by this request (not before): audited once.
  if (view.revoked_at === now.toISOString())
    await audited(tenantId, { ports, actor, action: 'kiosk.revoke', old: { ...view, revoked_at: null }, now, view });
  return view;
}

// ---- The tablet's side ---------------------------------------------------------------------------------------------

const tokenOf = (cookies: readonly string[]) => {
  const name = `${KIOSK_COOKIE}=`;
  return cookies.find((c) => c.startsWith(name))?.slice(name.length) ?? '';
};

/** The languages of a kiosk's pages before its tenant is known. */
const localeOf = (languages: AskedLanguages) => ({ locale: localeOfRequest(languages) });

/** The kiosk a token names, if it is one of a registered kiosk's; undefined for anything else. */
async function kioskOf(token: string, ports: Pick<KioskPorts, 'kiosks'>) {
  const named = readKioskToken(token);
  const kiosk = named && (await ports.kiosks.find(named.tenantId, named.id));
  return kiosk && isKioskToken(token, kiosk.tokenHash) ? { tenantId: named.tenantId, kiosk } : undefined;
}

/** The journey's page of the tablet's kiosk, or the page that says why not: 401 not registered, 410 revoked. */
async function open(cookies: readonly string[], ports: KioskReads, languages: AskedLanguages) {
  const found = await kioskOf(tokenOf(cookies), ports);
  if (!found) return told({ status: 401, frame: localeOf(languages), title: 'kiosk.unknown.title', text: 'kiosk.unknown.text' });
  const { tenantId, kiosk } = found;
  if (kiosk.revoked_at) return told({ status: 410, frame: localeOf(languages), title: 'kiosk.unknown.title', text: 'kiosk.revoked.text' });
  const target = {
    tenantId,
    storeId: kiosk.store,
    journeyId: kiosk.journeyId,
    employeeId: kiosk.employee ?? undefined,
    kioskId: kiosk.id,
    dailyCap: kiosk.daily_cap,
  };
  return openEntry({ code: target, settings: await ports.settings(tenantId), ports, languages, closed: 'kiosk.closed.text' });
}

/** What a kiosk's page reads (GET records nothing). */
export type KioskReads = Pick<KioskPorts, 'kiosks' | 'settings' | 'brand' | 'place'>;

/** GET /k/{token}: keeps the device token in the tablet's cookie, then goes to the kiosk's page without it. */
export async function enterKiosk(token: string, ports: Pick<KioskPorts, 'kiosks'>, languages: AskedLanguages): Promise<Page> {
  const found = await kioskOf(token, ports);
  if (!found) return told({ status: 401, frame: localeOf(languages), title: 'kiosk.unknown.title', text: 'kiosk.unknown.text' });
  if (found.kiosk.revoked_at)
    return told({ status: 410, frame: localeOf(languages), title: 'kiosk.unknown.title', text: 'kiosk.revoked.text' });
  // No Path: the default is the directory of /k/{token}, `/k` under any stage, which the kiosk's page is.
  const cookie = `${KIOSK_COOKIE}=${token}; Max-Age=${COOKIE_SECONDS}; HttpOnly; Secure; SameSite=Lax`;
  // A redirect's body is never shown: none.
  return { status: 303, html: '', policy: PLAIN_POLICY, location: KIOSK_PAGE_LINK, cookies: [cookie] };
}

/** GET /k: the empty form (never a previous answer); `thanks` after an answer, back to the start after 10 s. */
export async function showKioskPage({
  query,
  ports,
  languages,
  cookies,
}: {
  query: { thanks?: string | undefined };
  ports: KioskReads;
  languages: AskedLanguages;
  cookies: readonly string[];
}): Promise<Page> {
  const opened = await open(cookies, ports, languages);
  if (isPage(opened)) return opened;
  if (query.thanks !== undefined) return entryThanks(opened, query.thanks, { seconds: KIOSK_THANKS_SECONDS, url: KIOSK_SELF_LINK });
  return entryForm(opened, KIOSK_SELF_LINK, true);
}

/** POST /k: the answer, a transaction of source `kiosk` through the entries' one answer path, within the device's bound. */
export async function submitKioskPage({
  posted,
  ports,
  languages,
  request,
  now = new Date(),
}: {
  posted: URLSearchParams;
  ports: KioskPorts;
  languages: AskedLanguages;
  request: EntryRequest;
  now?: Date;
}): Promise<Page> {
  const opened = await open(request.cookies, ports, languages);
  if (isPage(opened)) return opened;
  const { tenantId, kioskId, dailyCap } = opened.code;
  const window = Math.floor(now.getTime() / 1000 / KIOSK_ANSWER_LIMIT.windowSeconds);
  // The device is the bounds' whole key: its window and its day count every answer it takes, from whatever address.
  const limit = {
    tenantId,
    tokenHash: kioskId,
    addressHash: 'kiosk',
    window,
    endsAt: (window + 1) * KIOSK_ANSWER_LIMIT.windowSeconds * 1000,
  };
  const day = kioskDayCounter(tenantId, { kioskId, now, zone: timeZoneOf(opened.settings) });
  return answerEntry({
    opened,
    action: KIOSK_SELF_LINK,
    posted,
    how: {
      source: 'kiosk',
      closed: 'kiosk.closed.text',
      // The short window first: a burst refused there takes nothing from the day.
      count: async () => {
        if (!(await ports.limits.countAnswer(limit, KIOSK_ANSWER_LIMIT.answers)))
          return { words: 'kiosk.tooMany.text', retryAfter: secondsUntil(limit.endsAt, now) };
        if (await ports.limits.countAnswer(day, dailyCap)) return undefined;
        return { words: 'kiosk.dailyCap.text', retryAfter: secondsToNextDay(now, timeZoneOf(opened.settings)) };
      },
      record: ports.record,
    },
  });
}
