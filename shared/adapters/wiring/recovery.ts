import { ENV, requireEnvs, wire } from '../../config.js';
import type { RecoveryCase } from '../../recovery/ports.js';
import * as recovery from '../../recovery/service.js';
import { reachability } from '../attempt-repository.js';
import { recoveryStore } from '../recovery-repository.js';
import { tenantSettings } from './tenants.js';
import { attemptScheduler } from './timers.js';

/**
 * Asks a resolved case's customer "Did we solve it?", once: writes the recovery survey onto its transaction and queues
 * its dispatch message. The queue's URL is read when a survey is asked for (the queue adapter's requireEnv): the case
 * changes hold this in functions that are not given the URL. (The survey page's answer to it: surveys.ts.)
 */
export const recoveryRequester = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return recovery.recoveryRequester({ store: recoveryStore, reachability, scheduler: attemptScheduler, settings: tenantSettings });
});

/** The same, as the case changes' `recovery` port takes it (its outcome is the survey's business). */
export const caseRecovery = {
  async request(tenantId: number, c: RecoveryCase): Promise<void> {
    await recoveryRequester.request(tenantId, c);
  },
};
