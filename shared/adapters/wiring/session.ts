import { configured, ENV, requireEnvs, wire } from '../../config.js';
import type { SessionVerifier } from '../../session/ports.js';
import * as session from '../../session/service.js';
import { cognitoIdentityProvider } from '../cognito.js';
import { cognitoSessionVerifier } from '../cognito-session.js';
import { tenantAccess } from './tenant-access.js';

/** The session pages: Cognito's public sign-in operations with the web client's id (sign in, new password, sign out). */
export const sessionPages = /* @__PURE__ */ wire(() => session.sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId))));

/** Who a session's ID token names, or undefined; the verifier (and its JWKS cache) is made once per container. */
export const verifySession = /* @__PURE__ */ wire(() => {
  const issuer = configured(ENV.userPoolIssuer);
  const clientId = configured(ENV.userPoolClientId);
  let verifier: SessionVerifier | undefined;
  return (idToken: string) => (verifier ??= cognitoSessionVerifier(issuer(), clientId())).verify(idToken);
});

/** The session's refresh page: Cognito's refresh, then the tenant's own check of the user the new ID token names. */
export const sessionRefresh = /* @__PURE__ */ wire(() => {
  // The refresh reads the tenant user the new ID token names: a disabled or removed user gets no new session.
  requireEnvs(ENV.tableName);
  return session.sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), {
    admits: session.sessionAdmission(verifySession, tenantAccess.resolveSessionUser),
  });
});
