import { ENV, requireEnvs } from '../../config.js';
import type { CaseRecoveryRecorder } from '../../recovery/ports.js';
import { recoveryAnswers } from '../../recovery/service.js';
import { caseStore } from '../case-repository.js';
import { recoveryStore } from '../recovery-repository.js';
import { caseSystemChanges } from '../../cases/system-changes.js';
import { events } from './events.js';
import { tenantSettings } from './tenant-settings.js';

// The recovery survey's answers read and write the table.
requireEnvs(ENV.tableName);

const cases = caseSystemChanges({ cases: caseStore, settings: tenantSettings, events });

/**
 * The cases service's recordRecovery. An answer the case holds already is not
 * recorded again: a retried page changes nothing and publishes no second `case.recovered`.
 */
const recorder: CaseRecoveryRecorder = {
  async recordRecovery(tenantId, caseId, recovery) {
    const held = (await caseStore.find(tenantId, caseId))?.recovery;
    if (held?.outcome === recovery.outcome && held.at === recovery.at) return;
    return cases.recordRecovery(tenantId, caseId, recovery);
  },
};

/** The recovery page's answers (the survey page functions): kept and counted on the transaction, then recorded on the case. */
export const recoveryPages = recoveryAnswers({ store: recoveryStore, settings: tenantSettings, recorder });
