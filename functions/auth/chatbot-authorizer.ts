import { authorizerHandler } from '../../shared/http/authorizer.js';

export const handler = authorizerHandler('chatbot');
