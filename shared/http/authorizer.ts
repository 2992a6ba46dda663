import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { logger } from '../logger.js';
import type { AuthContext } from '../access/auth-context.js';
import { API_KEY_HEADER } from '../headers.js';
import { hashSecret, MAX_SECRET_LENGTH, type KeyApi } from '../access/credentials.js';
import { keyMemory } from '../access/key-memory.js';
import { tenantAccess } from '../adapters/wiring/access.js';
import { ENV, requireEnvs } from '../config.js';

// Keys are looked up in the table: without its name, the authorizer's cold start fails.
requireEnvs(ENV.tableName);

/**
 * A REQUEST authorizer with simple responses. It always allows, passing `authenticated: false` for a bad key, so
 * that the handler answers the same 401 problem body for every bad key (a deny would be API Gateway's bare 403).
 */
export function authorizerHandler(scope: KeyApi) {
  const memory = keyMemory();
  return async (event: APIGatewayRequestAuthorizerEventV2): Promise<APIGatewaySimpleAuthorizerWithContextResult<AuthContext>> => {
    const presented = event.headers?.[API_KEY_HEADER];
    const keyHash = presented && presented.length <= MAX_SECRET_LENGTH ? hashSecret(presented) : undefined;
    const checkedFor = event.requestContext.requestId;
    try {
      const context = await tenantAccess.authorizeKey(presented, scope, { now: new Date(), noteUse: true });
      if (keyHash) memory.remember(keyHash, context);
      if (!context.authenticated) logger.info('Rejected API key', { requestId: event.requestContext.requestId, scope });
      return { isAuthorized: true, context: context.authenticated ? { ...context, checkedFor } : context };
    } catch (error) {
      // A key this authorizer verified a little while ago keeps working, so that sales keep queueing.
      const remembered = keyHash ? memory.recall(keyHash) : undefined;
      if (remembered) {
        logger.warn('API key accepted from memory: the table cannot be reached', { requestId: event.requestContext.requestId, scope });
        return { isAuthorized: true, context: { ...remembered, checkedFor } };
      }
      // A throw would be API Gateway's bare 500; the handler checks the key again and answers 503 if it still cannot.
      logger.error('API key could not be checked', {
        requestId: event.requestContext.requestId,
        scope,
        error: error instanceof Error ? error.name : 'unknown',
      });
      return { isAuthorized: true, context: { authenticated: false, recheck: scope } };
    }
  };
}
