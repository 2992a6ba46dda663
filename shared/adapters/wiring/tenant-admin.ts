import { ENV, requireEnvs } from '../../config.js';
import { webhookRotation } from '../../tenants/webhook-signing.js';
import { auditLog } from '../audit-log.js';
import { readSettings } from '../settings-repository.js';
import { raiseConfigVersion, rotateSigning } from '../tenant-repository.js';

// The rotate route reads and writes the tenant's webhook signing in the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/**
 * The webhook secrets' rotation, over only the repository functions it calls. The other admin routes wire only what
 * they call too: the configuration (tenant-config.ts), the audit log (tenant-audit.ts), the API keys (tenant-keys.ts),
 * the users (tenant-users.ts).
 */
export const { rotateWebhookSecret } = webhookRotation(
  { readSettings, rotateSigning, raiseConfigVersion },
  { surveySecret: () => process.env[ENV.surveySecret], surveySecretName: ENV.surveySecret, audit: auditLog },
);
