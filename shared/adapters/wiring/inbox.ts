import { ENV, requireEnvs } from '../../config.js';
import { answersPage } from '../../workspace/answers-page.js';
import { employees } from '../employee-repository.js';
import { stores } from '../store-repository.js';
import { recordReads } from './access-log.js';
import { listAnswers } from './answers.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** The workspace's answers inbox and its export over the answers service, the names of stores and employees, and the access log. */
export const { showAnswers, exportAnswers } = answersPage({
  settings: tenantSettings,
  listAnswers,
  storeNames: async (tenantId, ids) =>
    new Map((ids.length ? await stores.getMany(tenantId, ids) : []).map((store) => [store.id, store.trade_name])),
  employeeNames: async (tenantId, ids) =>
    new Map((ids.length ? await employees.getMany(tenantId, ids) : []).map((employee) => [employee.id, employee.name])),
  recordReads,
});
