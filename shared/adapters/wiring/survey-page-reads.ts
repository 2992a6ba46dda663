import { DEFAULT_LOCALE } from '../../locale.js';
import { ENV, requireEnvs } from '../../config.js';
import { storeNames } from '../attempt-repository.js';
import { findById } from '../transaction-repository.js';
import type { PageReads, PageTransaction } from '../../surveys/answer-page.js';
import type { TransactionRecord } from '../../transaction-record.js';
import { tenantSettings } from './tenant-settings.js';
import { brandOf } from '../../tenants/brand.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The records behind what `transaction` answered: the answer reuses them instead of reading again. */
const readRecords = new WeakMap<PageTransaction, TransactionRecord>();

/** The transaction record a page read for this request, when this container read it. */
export const recordOf = (read: PageTransaction): TransactionRecord | undefined => readRecords.get(read);

/**
 * What every survey page reads: the transaction behind a link, the tenant's settings and brand. The pages that only
 * show (GET /s/{token}, its unsubscribe page) use nothing else, so they bundle neither the answer path, the recovery
 * survey and the cases it records on (survey-pages.ts), nor the opt-out (survey-opt-out.ts).
 */
export const surveyPageReads: PageReads = {
  async transaction(tenantId, id): Promise<PageTransaction | undefined> {
    const record = await findById(tenantId, id);
    if (!record) return undefined;
    const { transaction } = record;
    const read: PageTransaction = {
      id,
      journeyId: transaction.journey_id,
      journeySlug: record.journeySlug,
      storeId: transaction.store_id,
      customerId: transaction.customer_id,
      customerName: record.customerName,
      attemptId: transaction.survey.attempt_id,
      status: transaction.survey.status,
      erased: record.erased,
      locale: record.locale ?? DEFAULT_LOCALE,
      score: transaction.rating?.score ?? null,
      recovery: record.recovery ? { status: record.recovery.status, recovered: record.recovery.recovered ?? null } : undefined,
    };
    readRecords.set(read, record);
    return read;
  },
  settings: tenantSettings,
  // The tenant's brand; a tenant that names none (made before brands) shows the store's name.
  brand: async (tenantId, storeId) => {
    const settings = await tenantSettings(tenantId);
    const tenantName = settings.brand?.name ? undefined : await storeNames.tradeName(tenantId, storeId);
    return brandOf(settings, { tenantName, baseUrl: process.env[ENV.surveyBaseUrl] });
  },
};
