import { tenantAccess } from '../../tenants/access.js';
import { tenantAccessRepository } from '../tenant-access-repository.js';

/** The checks of API keys and user tokens, for the authorizers and the HTTP wrapper: no tenant administration. */
export const { authorizeKey, resolveUser, resolveSessionUser } = tenantAccess(tenantAccessRepository);
