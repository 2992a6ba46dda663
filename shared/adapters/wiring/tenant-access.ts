import { wire } from '../../config.js';
import { logger } from '../../logger.js';
import * as access from '../../access/tenant-access.js';
import { tenantAccessRepository } from '../access-repository.js';

/**
 * The checks of API keys and user tokens, for the authorizers and the HTTP wrapper: no tenant administration. A module
 * apart from access.ts, whose compositions check the table's name at load, so that a function loaded unbundled (the
 * tests, the local stack) checks its own variables first.
 */
export const tenantAccess = /* @__PURE__ */ wire(() =>
  access.tenantAccess(tenantAccessRepository, {
    onUseNotRecorded: (error) =>
      logger.warn("A key's last use could not be recorded", { error: error instanceof Error ? error.name : 'unknown' }),
  }),
);
