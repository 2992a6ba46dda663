import { NotFoundError } from '../../errors.js';
import type { PagePorts, PageReads } from '../../surveys/answer-page.js';
import { answerSurvey } from './surveys.js';
import { recoveryPages } from './recovery.js';
import { findById } from '../transaction-repository.js';
import { recordOf, surveyPageReads } from './survey-page-reads.js';

/** The survey page's answer (POST /s/{token}): its reads, the one answer path and the recovery survey (the opt-out is survey-opt-out.ts's). */
export const surveyPage: PageReads & Pick<PagePorts, 'answer' | 'recover'> = {
  ...surveyPageReads,
  answer: (tenantId, body, read) => answerSurvey(tenantId, body, 'create', recordOf(read)),
  recover: async (tenantId, read, given) => {
    const record = recordOf(read) ?? (await findById(tenantId, read.id));
    if (!record) throw new NotFoundError('No such survey.');
    return recoveryPages.answer(tenantId, record, given);
  },
};
