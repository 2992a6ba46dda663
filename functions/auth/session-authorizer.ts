import { sessionAuthorizerHandler } from '../../shared/http/session-authorizer.js';
import { verifySession } from '../../shared/adapters/wiring/session.js';

export const handler = sessionAuthorizerHandler(verifySession);
