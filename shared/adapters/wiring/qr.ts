import { createHash, randomUUID } from 'node:crypto';
import { ENV, requireEnvs, wire } from '../../config.js';
import { translator } from '../../i18n/messages.js';
import type { EntryAnswer, QrPorts } from '../../in-store/ports.js';
import { auditLog } from '../audit-log.js';
import { entryPlace } from '../entry-place.js';
import { qrStore } from '../qr-repository.js';
import { surveyPageReads, surveyService } from './surveys.js';
import { tenantSettings } from './tenants.js';
import { transactionService } from './transactions.js';

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
  const { record } = await transactionService.registerTransaction(
    tenantId,
    {
      store: { id: answer.storeId },
      employee: { id: answer.employeeId ?? 1 },
      customer: customerOf(answer),
      journey: { id: answer.journeyId },
      params: {},
      rating: { score: answer.score, ...(answer.comment ? { comment: answer.comment } : {}) },
      ratingItems: answer.classes,
    },
    randomUUID(),
    { source: answer.source },
  );
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
