import { ENV, requireEnvs } from '../../config.js';
import type { RecoveryCase } from '../../recovery/ports.js';
import { recoveryRequester } from '../../recovery/service.js';
import { reachability } from '../attempt-repository.js';
import { recoveryStore } from '../recovery-repository.js';
import { attemptScheduler } from './attempt-scheduler.js';
import { tenantSettings } from './tenant-settings.js';

// Asking writes the recovery survey onto its transaction and queues its dispatch message. The queue's URL is read when
// a survey is asked for (the queue adapter's requireEnv): the cases wiring loads this in functions that only read cases,
// and those are not given the URL. It is imported statically: esbuild keeps a lazily imported module's dependencies
// whole (every DynamoDB and SQS command), which cost more at cold start than this module's load.
requireEnvs(ENV.tableName);

/** The `cases` service's optional `recovery` port: asks a resolved case's customer "Did we solve it?", once. */
export const recovery = recoveryRequester({ store: recoveryStore, reachability, scheduler: attemptScheduler, settings: tenantSettings });

/** The same, as the cases service's `recovery` port takes it (its outcome is the survey's business). */
export const caseRecovery = {
  async request(tenantId: number, c: RecoveryCase): Promise<void> {
    await recovery.request(tenantId, c);
  },
};
