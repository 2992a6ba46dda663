import { tenantAccess } from '../../tenants/access.js';
import { logger } from '../../logger.js';
import { tenantAccessRepository } from '../tenant-access-repository.js';

/** The checks of API keys and user tokens, for the authorizers and the HTTP wrapper: no tenant administration. */
export const { authorizeKey, confirmCachedKey, resolveUser, resolveSessionUser } = tenantAccess(tenantAccessRepository, {
  onUseNotRecorded: (error) =>
    logger.warn("A key's last use could not be recorded", { error: error instanceof Error ? error.name : 'unknown' }),
});
