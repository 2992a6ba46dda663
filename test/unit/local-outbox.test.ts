import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOutbox, type Outbox } from '../../infra/local/outbox.js';

/** The local outbox as a tenant's Slack or Teams webhook: whatever path the tenant gave, as theirs take any. */
let outbox: Outbox;

beforeAll(async () => {
  outbox = await startOutbox({ port: 0, signingSecrets: async () => [] });
});
afterAll(() => outbox.stop());

const post = (path: string) =>
  fetch(`${outbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":"Caso aberto"}' });

describe('the local outbox', () => {
  it("takes a chat message at any path, as a Slack or Teams webhook's address (answering ?status=NNN when asked)", async () => {
    for (const path of ['/chat/7-slack', '/services/T0/B0/xyz', '/workflows/abc/triggers/manual/paths/invoke?api-version=1', '/'])
      expect((await post(path)).status, path).toBe(200);
    expect((await post('/hooks/gone?status=410')).status).toBe(410);
    expect(outbox.messages.filter((m) => m.channel === 'chat').map((m) => [m.to, m.text])).toEqual([
      ['/chat/7-slack', '{"text":"Caso aberto"}'],
      ['/services/T0/B0/xyz', '{"text":"Caso aberto"}'],
      ['/workflows/abc/triggers/manual/paths/invoke?api-version=1', '{"text":"Caso aberto"}'],
      ['/', '{"text":"Caso aberto"}'],
      ['/hooks/gone?status=410', '{"text":"Caso aberto"}'],
    ]);
  });

  it('lists what came at or after ?since=, and names the format of a since it cannot read', async () => {
    // An instant a few milliseconds after every message so far, and before the next one (receivedAt is to the ms).
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    await pause();
    const before = new Date().toISOString();
    await pause();
    await post('/chat/since-test');
    const listed = async (query: string) => (await (await fetch(`${outbox.url}/messages${query}`)).json()) as { to: string }[];
    expect((await listed(`?since=${before}`)).map((m) => m.to)).toEqual(['/chat/since-test']);
    expect(await listed(`?since=${new Date(Date.now() + 60_000).toISOString()}`)).toEqual([]);
    expect((await listed('')).length).toBe(outbox.messages.length);
    const refused = await fetch(`${outbox.url}/messages?since=yesterday`);
    expect([refused.status, await refused.json()]).toEqual([
      400,
      { message: 'since must be an ISO 8601 instant, such as 2026-01-31T12:00:00.000Z' },
    ]);
  });

  it('still answers 404 to a read of a path it does not serve', async () => {
    expect((await fetch(`${outbox.url}/services/T0`)).status).toBe(404);
  });
});
