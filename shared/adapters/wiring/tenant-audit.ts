import { ENV, requireEnvs } from '../../config.js';
import { auditLog } from '../audit-log.js';

// The audit log is read from the table: without its name, the cold start fails.
requireEnvs(ENV.tableName);

/** The tenant's admin changes, newest first (GET /public/admin/audit). */
export const auditEntries = auditLog.list;
