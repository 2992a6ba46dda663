import { ENV, requireEnvs } from '../../config.js';
import { recoveryAnswers } from '../../recovery/service.js';
import { recoveryStore } from '../recovery-repository.js';
import { tenantSettings } from './tenants.js';

// The recovery survey's answers read and write the table.
requireEnvs(ENV.tableName);

/**
 * The recovery page's answers (the survey page functions). The `cases` service's recordRecovery is plugged in as
 * `recorder` once the cases branch provides it; until then an answer is kept and counted on its transaction.
 */
export const recoveryPages = recoveryAnswers({ store: recoveryStore, settings: tenantSettings });
