import { NotFoundError } from '../../errors.js';
import type { PagePorts } from '../../surveys/answer-page.js';
import { optOutCustomer } from './email-feedback.js';
import { answerSurvey } from './surveys.js';
import { recoveryPages } from './recovery.js';
import { findById } from '../transaction-repository.js';
import { recordOf, surveyPageReads } from './survey-page-reads.js';

/** The survey page's answer (POST /s/{token}): its reads, the one answer path, the recovery survey and the opt-out. */
export const surveyPage: PagePorts = {
  ...surveyPageReads,
  answer: (tenantId, body, read) => answerSurvey(tenantId, body, 'create', recordOf(read)),
  recover: async (tenantId, read, given) => {
    const record = recordOf(read) ?? (await findById(tenantId, read.id));
    if (!record) throw new NotFoundError('No such survey.');
    return recoveryPages.answer(tenantId, record, given);
  },
  optOut: optOutCustomer,
};
