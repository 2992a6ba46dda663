import { checkHealth } from '../../shared/health/service.js';
import { httpHandler } from '../../shared/http/handler.js';

export const handler = httpHandler({ anonymous: true }, async () => ({ status: 200, body: await checkHealth() }));
