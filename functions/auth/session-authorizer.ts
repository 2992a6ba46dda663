import { sessionAuthorizerHandler } from '../../shared/http/session-authorizer.js';
import { verifySession } from '../../shared/adapters/wiring/session-verifier.js';

export const handler = sessionAuthorizerHandler(verifySession);
