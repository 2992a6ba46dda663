import { ENV, requireEnvs, wire } from '../../config.js';
import { NotFoundError } from '../../errors.js';
import { brandOf } from '../../brand/brand.js';
import * as recovery from '../../recovery/service.js';
import { pageTransactionOf, type PagePorts, type PageReads } from '../../surveys/answer-page.js';
import type { FeedbackPorts } from '../../surveys/feedback.js';
import * as surveys from '../../surveys/service.js';
import { attemptStore, reachability, storeNames, suppressAddress } from '../attempt-repository.js';
import { analysisQueue } from '../analysis-queue.js';
import { caseQueue } from '../case-queue.js';
import { caseStore } from '../case-repository.js';
import { evaluationStore } from '../evaluation-repository.js';
import { recoveryAttempts, recoveryStore } from '../recovery-repository.js';
import { senders } from '../senders.js';
import { findById } from '../transaction-repository.js';
import { caseSystemChanges } from './cases.js';
import { optOutCustomer } from './customers.js';
import { events } from './events.js';
import { tenantSettings } from './tenants.js';
import { attemptScheduler } from './timers.js';

/** The chatbot's survey routes and the evaluation lists: the table and the tenant's settings. */
export const surveyService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return surveys.surveyService({
    evaluations: evaluationStore,
    settings: tenantSettings,
    events,
    // Only the answering functions send (POST and PUT /survey, the survey page's post): they are given the queue.
    cases: caseQueue,
    analysis: analysisQueue,
  });
});

/**
 * What every survey page reads: the transaction behind a link, the tenant's settings and brand. The pages that only
 * show (GET /s/{token}, its unsubscribe page) use nothing else, so they bundle neither the answer path, the recovery
 * survey and the cases it records on (surveyPage), nor the opt-out (surveyOptOut).
 */
export const surveyPageReads = /* @__PURE__ */ wire((): PageReads => {
  requireEnvs(ENV.tableName);
  return {
    async transaction(tenantId, id) {
      const record = await findById(tenantId, id);
      return record && pageTransactionOf(id, record);
    },
    settings: tenantSettings,
    // The tenant's brand; a tenant that names none (made before brands) shows the store's name.
    brand: async (tenantId, storeId) => {
      const settings = await tenantSettings(tenantId);
      const tenantName = settings.brand?.name ? undefined : await storeNames.tradeName(tenantId, storeId);
      return brandOf(settings, { tenantName, baseUrl: process.env[ENV.surveyBaseUrl] });
    },
  };
});

/** The recovery page's answers: kept and counted on the transaction, then recorded on the case once. */
export const recoveryAnswers = /* @__PURE__ */ wire(() => {
  // The recovery survey's answers read and write the table.
  requireEnvs(ENV.tableName);
  return recovery.recoveryAnswers({
    store: recoveryStore,
    settings: tenantSettings,
    recorder: recovery.recordOnce(caseStore.find, caseSystemChanges.recordRecovery),
  });
});

/** The survey page's answer (POST /s/{token}): its reads, the one answer path and the recovery survey. */
export const surveyPage = /* @__PURE__ */ wire((): PageReads & Pick<PagePorts, 'answer' | 'recover'> => ({
  ...surveyPageReads,
  answer: (tenantId, body, read) => surveyService.answerSurvey(tenantId, body, { mode: 'create', known: read.record?.() }),
  recover: async (tenantId, read, given) => {
    const record = read.record?.() ?? (await findById(tenantId, read.id));
    if (!record) throw new NotFoundError('No such survey.');
    return recoveryAnswers.answer(tenantId, record, given);
  },
}));

/** The unsubscribe post (POST /s/{token}/unsubscribe): the page's reads and the opt-out, without the answer path. */
export const surveyOptOut = /* @__PURE__ */ wire((): PageReads & Pick<PagePorts, 'optOut'> => ({
  ...surveyPageReads,
  optOut: optOutCustomer,
}));

/**
 * SES bounces and complaints: suppress the address, opt the customer out (none of the survey pages' answers, recovery
 * or cases).
 */
export const emailFeedback: FeedbackPorts = { suppress: suppressAddress, optOut: optOutCustomer };

/**
 * Survey delivery: the attempt store, reachability, store names, the providers (SES, SMS, WhatsApp, webhooks) and
 * the scheduler that puts later attempts back on the queue.
 */
export const surveyDelivery = /* @__PURE__ */ wire(() => {
  // Delivery reads the table and puts later attempts back on the dispatch queue: both must be named at cold start.
  requireEnvs(ENV.tableName, ENV.surveyDispatchQueueUrl);
  return {
    attempts: attemptStore,
    recoveries: recoveryAttempts,
    reachability,
    stores: storeNames,
    senders,
    scheduler: attemptScheduler,
    settings: tenantSettings,
    events,
  };
});
