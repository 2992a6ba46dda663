import { NotFoundError } from '../../errors.js';
import { suppressAddress } from '../attempt-repository.js';
import type { FeedbackPorts } from '../../surveys/feedback.js';
import { editCustomer } from './customers.js';

/** A customer opted out, from the survey page's link or an e-mail complaint; an erased customer has nothing left to opt out of. */
export async function optOutCustomer(tenantId: number, customerId: number): Promise<void> {
  try {
    await editCustomer(tenantId, customerId, { opt_out: true });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
}

/**
 * SES bounces and complaints: suppress the address, opt the customer out. A module apart from the survey pages' wiring,
 * whose answers, recovery and cases sesEvents never uses (they were 95 KiB of its bundle).
 */
export const emailFeedback: FeedbackPorts = { suppress: suppressAddress, optOut: optOutCustomer };
