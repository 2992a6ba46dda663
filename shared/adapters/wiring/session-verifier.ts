import { configured, ENV } from '../../config.js';
import type { SessionVerifier } from '../../session/ports.js';
import { cognitoSessionVerifier } from '../cognito-session.js';

const issuer = configured(ENV.userPoolIssuer);
const clientId = configured(ENV.userPoolClientId);
let verifier: SessionVerifier | undefined;

/** Who a session's ID token names, or undefined; the verifier (and its JWKS cache) is made once per container. */
export const verifySession = (idToken: string) => (verifier ??= cognitoSessionVerifier(issuer(), clientId())).verify(idToken);
