import type { APIGatewayRequestAuthorizerEventV2, APIGatewaySimpleAuthorizerWithContextResult } from 'aws-lambda';
import { logger } from '../logger.js';
import { cookieValue, SESSION_COOKIE } from '../session/cookies.js';
import type { SessionClaims } from '../session/ports.js';

/**
 * The workspace's authorizer: the session cookie's ID token, verified (aws-jwt-verify, the pool's JWKS), gives the
 * pages the tenant and user it names. It always allows: a page without a session answers the redirect to sign in
 * itself (a deny would be API Gateway's bare 403). No identity source and no cache: a signed-out request must reach it.
 */
export function sessionAuthorizerHandler(verify: (idToken: string) => Promise<SessionClaims | undefined>) {
  return async (
    event: APIGatewayRequestAuthorizerEventV2,
  ): Promise<APIGatewaySimpleAuthorizerWithContextResult<Partial<SessionClaims>>> => {
    const token = cookieValue(event.cookies, SESSION_COOKIE);
    const claims = token && token.length <= 8192 ? await verify(token) : undefined;
    if (token && !claims) logger.info('Session token refused (expired, or not ours)', { requestId: event.requestContext.requestId });
    return { isAuthorized: true, context: claims ?? {} };
  };
}
