import { JwtVerifier } from 'aws-jwt-verify';
import { SimpleJwksCache } from 'aws-jwt-verify/jwk';
import type { Fetcher } from 'aws-jwt-verify/https';
import type { SessionClaims, SessionVerifier } from '../session/ports.js';
import { TENANT_ATTRIBUTE } from './cognito.js';

/*
 * The session's check (aws-jwt-verify), apart from Cognito's operations (cognito.ts): the users routes and pages, which
 * invite and disable managers, never verify a token and so do not bundle the library.
 */

/**
 * Plain HTTP for the local emulator only: aws-jwt-verify fetches JWKS over HTTPS, and on AWS the issuer is Cognito's
 * HTTPS URL, where the library's own fetcher is used.
 */
const localFetcher: Fetcher = {
  fetch: async (uri) => {
    const response = await fetch(uri, { signal: AbortSignal.timeout(3000) });
    if (!response.ok) throw new Error(`JWKS answered ${response.status}`);
    return response.arrayBuffer();
  },
};

/**
 * Verifies session ID tokens with aws-jwt-verify against the pool's JWKS (fetched once per container, and again only
 * for a key it has not seen): signature, issuer, audience (the web client), expiry, and that it is an ID token.
 */
export function cognitoSessionVerifier(issuer: string, clientId: string): SessionVerifier {
  const verifier = JwtVerifier.create(
    {
      issuer,
      audience: clientId,
      jwksUri: `${issuer}/.well-known/jwks.json`,
      customJwtCheck: ({ payload }) => {
        if (payload.token_use !== 'id') throw new Error('not an ID token');
      },
    },
    issuer.startsWith('http://') ? { jwksCache: new SimpleJwksCache({ fetcher: localFetcher }) } : undefined,
  );
  return {
    async verify(idToken): Promise<SessionClaims | undefined> {
      let payload: Record<string, unknown>;
      try {
        payload = (await verifier.verify(idToken)) as Record<string, unknown>;
      } catch {
        return undefined;
      }
      const tenantId = Number(payload[TENANT_ATTRIBUTE]);
      const user = payload.email;
      if (!Number.isInteger(tenantId) || tenantId < 1 || typeof user !== 'string' || !user) return undefined;
      return { tenantId, user: user.toLowerCase() };
    },
  };
}
