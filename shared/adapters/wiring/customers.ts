import { ENV, requireEnvs, wire } from '../../config.js';
import * as customers from '../../customers/service.js';
import { customerRepository } from '../customer-repository.js';

/** The customers routes (and the stores of a transaction's unknown customer). */
export const customerService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return customers.customerService(customerRepository);
});

/** A customer opted out, from the survey page's link or an e-mail complaint. */
export const optOutCustomer = /* @__PURE__ */ wire(() => customers.customerOptOut(customerService.editCustomer));
