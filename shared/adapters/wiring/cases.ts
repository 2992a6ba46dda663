import { ENV, requireEnvs } from '../../config.js';
import { caseService } from '../../cases/service.js';
import { caseStore } from '../case-repository.js';
import { caseContacts, caseUsers } from '../case-ports.js';
import { evaluationStore } from '../evaluation-repository.js';
import { events } from './events.js';
import { caseRecovery } from './recovery-requests.js';
import { tenantSettings } from './tenants.js';

// The cases API reads and writes the table (updateCase also publishes case.resolved, on the queue it is given, and
// queues a resolved case's recovery survey on the survey dispatch queue: recovery-requests.ts checks its URL).
requireEnvs(ENV.tableName);

/** The cases API (GET/PATCH /public/cases...): the case items, the tenant's users, the answered transactions, events. */
export const cases = caseService({
  cases: caseStore,
  users: caseUsers,
  answers: evaluationStore,
  contacts: caseContacts,
  settings: tenantSettings,
  events,
  recovery: caseRecovery,
});
