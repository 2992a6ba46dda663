import { configured, ENV, requireEnvs, wire } from '../../config.js';
import { sealer } from '../../sealed.js';
import type { SessionVerifier } from '../../session/ports.js';
import * as session from '../../session/service.js';
import { signInPages } from '../../workspace/sign-in-page.js';
import { cognitoIdentityProvider } from '../cognito.js';
import { cognitoSessionVerifier } from '../cognito-session.js';
import { signInAttempts } from '../sign-in-attempts.js';
import { tenantAccess } from './access.js';

/**
 * An invited user's new-password challenge, between the sign-in form and the new-password form, sealed with the
 * deployment's cursor secret under a key of its own purpose (its functions read the secret at cold start).
 */
export const challengeSealer = /* @__PURE__ */ wire(() => sealer(configured(ENV.cursorSecret), 'sign-in-challenge/v1'));

/** The sign-in form's post: Cognito, the failures counted, an invited user's challenge sealed. */
export const signInService = /* @__PURE__ */ wire(() => {
  // The failed sign-ins are counted in the table.
  requireEnvs(ENV.tableName);
  return session.signInService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), {
    challenges: challengeSealer,
    pages: signInPages,
    attempts: signInAttempts,
  });
});

/** The new-password form's post: Cognito's challenge, from the cookie the sign-in sealed. */
export const newPasswordService = /* @__PURE__ */ wire(() =>
  session.newPasswordService(cognitoIdentityProvider(configured(ENV.userPoolClientId)), {
    challenges: challengeSealer,
    pages: signInPages,
  }),
);

/** Signing out: Cognito's revocation with the web client's id. */
export const sessionService = /* @__PURE__ */ wire(() => session.sessionService(cognitoIdentityProvider(configured(ENV.userPoolClientId))));

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
