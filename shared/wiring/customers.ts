import { customerRepository } from '../adapters/customer-repository.js';
import { customerService } from '../customers/service.js';

export const { createCustomer, getCustomer, editCustomer, listCustomers } = customerService(customerRepository);
