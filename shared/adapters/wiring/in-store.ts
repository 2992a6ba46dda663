import { createHash, randomUUID } from 'node:crypto';
import { configured, ENV, requireEnvs, wire } from '../../config.js';
import { translator } from '../../i18n/messages.js';
import type { EntryAnswer, QrPorts } from '../../in-store/ports.js';
import { auditLog } from '../audit-log.js';
import { entryPlace } from '../entry-place.js';
import { qrStore } from '../qr-repository.js';
import { surveyPageReads, surveyService } from './surveys.js';
import { shownOnce, tenantSettings } from './tenants.js';
import { transactionService } from './transactions.js';
import type { KioskAdminPorts, KioskPorts, KioskReads } from '../../in-store/kiosk.js';
import { kioskStore } from '../kiosk-repository.js';
import { qrSvg } from '../../in-store/qr-draw.js';
import { qrUrl } from '../../in-store/qr-admin.js';
import { kioskAnswersToday, listKiosks, registerKiosk, revokeKiosk } from '../../in-store/kiosk.js';
import { adminInStorePage } from '../../workspace/admin-in-store-page.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';

/**
 * The customer a walk-in answer is registered on: one who left a contact is found again by it (a pseudonymous external
 * code, the hash of the contact), so a case can reach them; everyone else is the tenant's one anonymous customer.
 */
function customerOf(answer: EntryAnswer) {
  const name = translator(answer.locale)('qr.customerName');
  const { email, phone } = answer.contact;
  if (!email && !phone) return { externalId: 'walk-in-anonymous', name };
  const code = createHash('sha256')
    .update(`${email ?? ''}\u0000${phone ?? ''}`)
    .digest('base64url')
    .slice(0, 24);
  return { externalId: `walk-in-${code}`, name, email, phone, locale: answer.locale };
}

/** A walk-in answer: a transaction registered rated, with its source, then announced as the answer path does. */
export async function recordEntryAnswer(tenantId: number, answer: EntryAnswer): Promise<void> {
  const { record } = await transactionService.registerTransaction(tenantId, {
    command: {
      store: { id: answer.storeId },
      employee: { id: answer.employeeId ?? 1 },
      customer: customerOf(answer),
      journey: { id: answer.journeyId },
      params: {},
      rating: { score: answer.score, ...(answer.comment ? { comment: answer.comment } : {}) },
      ratingItems: answer.classes,
    },
    requestKey: randomUUID(),
    source: answer.source,
  });
  await surveyService.announceAnswer(tenantId, record);
}

/** The QR page (GET and POST /q/{token}): the survey pages' reads, the code's bounds and the walk-in answer path. */
export const qrPage = /* @__PURE__ */ wire((): QrPorts => {
  requireEnvs(ENV.tableName);
  return { settings: tenantSettings, brand: surveyPageReads.brand, place: entryPlace, limits: qrStore, record: recordEntryAnswer };
});

/** The QR page's reads only (GET /q/{token} records nothing). */
export const qrPageReads = /* @__PURE__ */ wire((): Pick<QrPorts, 'settings' | 'brand' | 'place'> => {
  requireEnvs(ENV.tableName);
  return { settings: tenantSettings, brand: surveyPageReads.brand, place: entryPlace };
});

/** The admin's side: a code's URL (its store active, its employee one of the store's) and the rotation, audited. */
export const qrAdmin = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return {
    settings: tenantSettings,
    place: entryPlace,
    store: qrStore,
    audit: auditLog,
  };
});

/** The kiosk's answer (POST /k): its kiosk, the survey pages' reads, the device's bound and the walk-in answer path. */
export const kioskPage = /* @__PURE__ */ wire((): KioskPorts => {
  requireEnvs(ENV.tableName);
  return {
    kiosks: kioskStore,
    settings: tenantSettings,
    brand: surveyPageReads.brand,
    place: entryPlace,
    limits: qrStore,
    record: recordEntryAnswer,
  };
});

/** The kiosk's page (GET /k): its kiosk and the survey pages' reads; it records nothing, so no answer path. */
export const kioskPageReads = /* @__PURE__ */ wire((): KioskReads => {
  requireEnvs(ENV.tableName);
  return { kiosks: kioskStore, settings: tenantSettings, brand: surveyPageReads.brand, place: entryPlace };
});

/** The tablet's first visit (GET /k/{token}): its kiosk only. */
export const kioskEntry = /* @__PURE__ */ wire((): Pick<KioskPorts, 'kiosks'> => {
  requireEnvs(ENV.tableName);
  return { kiosks: kioskStore };
});

/** The admin's side: register (its store active, its employee one of the store's), list and revoke, audited. */
export const kioskAdmin = /* @__PURE__ */ wire((): KioskAdminPorts => {
  requireEnvs(ENV.tableName);
  return {
    settings: tenantSettings,
    place: entryPlace,
    kiosks: kioskStore,
    audit: auditLog,
  };
});

/**
 * The tenant admins' in-store page (/app/admin/qr) over the services of GET /public/admin/qr (the code's URL, signed
 * with the survey secret, and its picture) and /public/admin/kiosks (register, list, revoke, audited), each kiosk's
 * answers today (its daily cap's counter); a new kiosk's
 * address shown once, sealed. `secret`: the survey secret's getter, read at the handler's cold start.
 */
export const inStorePage = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  const baseUrl = configured(ENV.surveyBaseUrl);
  return (secret: () => string) =>
    adminInStorePage({
      settings: tenantSettings,
      storeChoices: (tenantId, most) => storeChoices(tenantId, 'all', most),
      storeNames: storeTradeNames,
      qrUrl: (tenantId, target) => qrUrl(tenantId, { target, ports: qrAdmin, secret: secret(), baseUrl: baseUrl() }),
      qrSvg,
      kiosks: {
        list: (tenantId) => listKiosks(tenantId, kioskAdmin),
        register: (tenantId, body, actor) => registerKiosk(tenantId, { body, actor, ports: kioskAdmin, baseUrl: baseUrl() }),
        revoke: (tenantId, id, actor) => revokeKiosk(tenantId, { id, actor, ports: kioskAdmin }),
        today: (tenantId, ids, zone) => kioskAnswersToday(tenantId, { ids, zone, ports: { limits: qrStore } }),
      },
      shownOnce,
    });
});
