import { answer, problem } from '../../shared/http/contract.js';
import { Health } from '../../shared/health/service.js';
import { checkHealth } from '../../shared/adapters/wiring/health.js';
import { httpHandler } from '../../shared/http/handler.js';

export const contract = {
  anonymous: true as const,
  responses: { 200: answer('The service reaches its table', Health), 503: problem('The table cannot be reached') },
};

export const handler = httpHandler(contract, async () => ({ status: 200, body: await checkHealth() }));
