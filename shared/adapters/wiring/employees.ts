import { ENV, requireEnvs, wire } from '../../config.js';
import * as employees from '../../employees/service.js';
import { employeeRepository } from '../employee-repository.js';
import { getGroups } from '../settings-repository.js';
import { storeRepository } from '../store-repository.js';

/** The employees routes, their stores and groups (and the employees a transaction's unknown external id creates). */
export const employeeService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return employees.employeeService({ employees: employeeRepository, stores: storeRepository, groups: getGroups });
});
