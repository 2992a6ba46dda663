import { describe, expect, it } from 'vitest';
import { overHttp } from '../support/api.js';

describe('GET /robots.txt', () => {
  it('keeps crawlers out of the workspace and the survey links, in plain text, without a key', async () => {
    // Act
    const res = await overHttp('public')({ path: '/robots.txt' });

    // Assess
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.text.split('\n')).toEqual(['User-agent: *', 'Disallow: /app/', 'Disallow: /s/', '']);
  });
});
