import { ENV, requireEnvs } from '../../config.js';
import { caseChanges } from '../../cases/changes.js';
import { caseUsers } from '../case-ports.js';
import { caseStore } from '../case-repository.js';
import { events } from './events.js';
import { caseRecovery } from './recovery-requests.js';
import { tenantSettings } from './tenant-settings.js';

// A manager's change writes the case, publishes case.resolved and asks for the recovery survey (on the queue it is given:
// the queue adapter reads the survey dispatch queue's URL when it sends).
requireEnvs(ENV.tableName);

/** PATCH /public/cases/{id} and the workspace's case form. */
export const caseEdits = caseChanges({ cases: caseStore, users: caseUsers, settings: tenantSettings, events, recovery: caseRecovery });
