import { ENV, requireEnvs } from '../../config.js';
import { customerRepository } from '../customer-repository.js';
import { customerService } from '../../customers/service.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export const { createCustomer, getCustomer, editCustomer, listCustomers } = customerService(customerRepository);
