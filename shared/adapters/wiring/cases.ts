import { ENV, requireEnvs } from '../../config.js';
import { caseService } from '../../cases/service.js';
import { caseStore } from '../case-repository.js';
import { caseContacts, caseUsers } from '../case-ports.js';
import { evaluationStore } from '../evaluation-repository.js';
import { events } from './events.js';
import { caseRecovery } from './recovery-requests.js';
import { tenantSettings } from './tenant-settings.js';

// The cases API reads and writes the table (updateCase also publishes case.resolved, on the queue it is given). Only a
// function that resolves cases asks for recovery surveys, and only it has the survey dispatch queue's URL: the queue
// adapter reads the URL when it sends, so that the functions that only read cases start without it.
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
