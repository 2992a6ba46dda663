import { ENV, requireEnvs } from '../config.js';
import { employeeRepository } from '../adapters/employee-repository.js';
import { storeRepository } from '../adapters/store-repository.js';
import { getGroups } from '../adapters/tenant-repository.js';
import { employeeService } from '../employees/service.js';

// The functions this module serves read the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

export const {
  createEmployee,
  getEmployee,
  editEmployee,
  deactivateEmployee,
  listEmployees,
  employeeStores,
  employeeGroups,
  replaceRelation,
} = employeeService({ employees: employeeRepository, stores: storeRepository, groups: getGroups });
