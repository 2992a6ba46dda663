import type { PagePorts, PageReads } from '../../surveys/answer-page.js';
import { optOutCustomer } from './email-feedback.js';
import { surveyPageReads } from './survey-page-reads.js';

/** The unsubscribe post (POST /s/{token}/unsubscribe): the page's reads and the opt-out, without the answer path. */
export const surveyOptOut: PageReads & Pick<PagePorts, 'optOut'> = { ...surveyPageReads, optOut: optOutCustomer };
