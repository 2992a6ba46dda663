import { ENV, requireEnvs } from '../../config.js';
import { caseReads } from '../../cases/reads.js';
import { caseContacts } from '../case-ports.js';
import { caseStore } from '../case-repository.js';
import { tenantSettings } from './tenant-settings.js';

requireEnvs(ENV.tableName);

/** The cases read through the API and the workspace (the list, one case, its customer's contact): nothing that writes. */
export const caseQueries = caseReads({ cases: caseStore, contacts: caseContacts, settings: tenantSettings });
