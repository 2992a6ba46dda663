import { configured, ENV, requireEnvs } from '../../config.js';
import { UnauthenticatedError } from '../../errors.js';
import { sessionService } from '../../session/service.js';
import { cognitoIdentityProvider } from '../cognito.js';
import { verifySession } from './session-verifier.js';
import { resolveSessionUser } from './tenant-access.js';

// The refresh reads the tenant user the new ID token names: a disabled or removed user gets no new session.
requireEnvs(ENV.tableName);

/** Whether the user a fresh ID token names may still use the workspace. */
async function admits(idToken: string): Promise<boolean> {
  const claims = await verifySession(idToken);
  if (!claims) return false;
  try {
    await resolveSessionUser(claims.tenantId, claims.user);
    return true;
  } catch (refused) {
    if (refused instanceof UnauthenticatedError) return false;
    throw refused;
  }
}

/** The session's refresh page: Cognito's refresh, then the tenant's own check of the user. */
export const { refresh } = sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), { admits });
