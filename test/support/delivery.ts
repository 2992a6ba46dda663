import { attemptStore, reachability, storeNames } from '../../shared/adapters/attempt-repository.js';
import { recoveryAttempts } from '../../shared/adapters/recovery-repository.js';
import { senders } from '../../shared/adapters/senders.js';
import { tenantSettings } from '../../shared/adapters/wiring/tenants.js';
import { ENV, requireEnv } from '../../shared/config.js';

/** Survey delivery over the real adapters, with later attempts not scheduled: what a test calls deliverSurvey with. */
export const deliveryPorts = {
  attempts: attemptStore,
  recoveries: recoveryAttempts,
  reachability,
  stores: storeNames,
  senders,
  scheduler: { schedule: async () => {} },
  settings: tenantSettings,
};

/** The deployment's survey link settings, as the dispatcher reads them. */
export const linkConfig = () => ({ surveySecret: requireEnv(ENV.surveySecret), baseUrl: requireEnv(ENV.surveyBaseUrl) });
