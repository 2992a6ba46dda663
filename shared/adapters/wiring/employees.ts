import { ENV, requireEnvs } from '../../config.js';
import { employeeRepository } from '../employee-repository.js';
import { storeRepository } from '../store-repository.js';
import { getGroups } from '../settings-repository.js';
import { employeeService } from '../../employees/service.js';

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
