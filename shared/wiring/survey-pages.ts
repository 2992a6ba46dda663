import { storeNames, suppressAddress } from '../adapters/attempt-repository.js';
import { findByIdItem } from '../adapters/transaction-repository.js';
import { editCustomer } from '../wiring/customers.js';
import type { PagePorts, PageTransaction } from '../surveys/answer-page.js';
import type { FeedbackPorts } from '../surveys/feedback.js';
import { answerSurvey } from '../surveys/service.js';
import { tenantSettings } from '../wiring/tenants.js';

/** The survey page: the transaction behind a link, the tenant's settings, the one answer path and the opt-out. */
export const surveyPage: PagePorts = {
  async transaction(tenantId, id): Promise<PageTransaction | undefined> {
    const item = await findByIdItem(tenantId, id);
    if (!item || item.status !== 'created') return undefined;
    const survey = item.survey as { status: string; attempt_id: number | null };
    return {
      id,
      journeyId: Number(item.journey_id),
      journeySlug: String(item.journey_slug),
      storeId: Number(item.store_id),
      customerId: Number(item.customer_id),
      customerName: typeof item.customer_name === 'string' ? item.customer_name : null,
      attemptId: survey.attempt_id,
      status: survey.status,
    };
  },
  settings: tenantSettings,
  stores: storeNames,
  answer: (tenantId, body) => answerSurvey(tenantId, body, 'create'),
  optOut: async (tenantId, customerId) => {
    await editCustomer(tenantId, customerId, { opt_out: true });
  },
};

/** SES bounces and complaints: suppress the address, opt the customer out. */
export const emailFeedback: FeedbackPorts = { suppress: suppressAddress, optOut: surveyPage.optOut };
