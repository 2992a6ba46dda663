import { describe, expect, it, vi } from 'vitest';
import { ENV } from '../../shared/config.js';
import { inProcess } from '../support/api.js';

describe('GET /health', () => {
  it('answers 200 without a key when the table is reachable', async () => {
    const res = await inProcess()({ path: '/health' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'ok' });
  });

  it('answers 503 problem+json when the table is not', async () => {
    vi.resetModules();
    const tableName = process.env[ENV.tableName];
    process.env[ENV.tableName] = 'no-such-table';
    try {
      const { handler } = await import('../../functions/http/get-health.js');
      const { httpEvent } = await import('../../infra/local/events.js');
      const { invoke } = await import('../../infra/local/invoke.js');
      const res = await invoke('getHealth', handler, httpEvent({ method: 'GET', routePath: '/health', rawPath: '/health' }));
      expect(res.statusCode).toBe(503);
      expect(res.headers?.['content-type']).toBe('application/problem+json');
      expect(JSON.parse(res.body!)).toMatchObject({ type: '/problems/unavailable', status: 503 });
    } finally {
      process.env[ENV.tableName] = tableName;
      vi.resetModules();
    }
  });
});
