import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { hashSecret } from '../../shared/access/credentials.js';
import { apiKeys } from '../../shared/adapters/wiring/access.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { command } from '../support/commands.js';

const publicApi = inProcess('public');
/** The admin command as an operator runs it, against the test stack's table (its endpoint is in the environment). */
const operator = (args: string[]) => command('infra/admin.ts', args);
let tenant: TestTenant;
let other: TestTenant;

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
});

const listWith = (key?: string) => publicApi({ path: '/public/store', ...(key === undefined ? {} : { key }) });

describe('API keys', () => {
  it('lets a valid public key in, scoped to its tenant', async () => {
    const res = await listWith(tenant.key);
    expect(res.status).toBe(200);
  });

  it('answers one and the same 401 problem for unknown, malformed, revoked and wrong-scope keys', async () => {
    const revoked = await tenantService.issueApiKey(tenant.tenantId, { scope: 'public' });
    await apiKeys.revokeKey(tenant.tenantId, { keyId: revoked.keyId, actor: { operator: true } });

    const answers = await Promise.all([
      listWith('ssk_unknown-key-0000000000000000000000000000'),
      listWith('x'.repeat(5000)),
      listWith('not even close'),
      listWith(revoked.key),
      listWith(tenant.chatbotKey),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toBe('application/problem+json');
    }
    expect(new Set(answers.map((r) => r.text)).size).toBe(1);
    expect(answers[0]!.body).toEqual({
      type: '/problems/unauthenticated',
      title: 'Unauthorized',
      status: 401,
      detail: 'A valid API key is required.',
    });
  });

  it('answers 401 before looking at the body', async () => {
    const res = await publicApi({ method: 'POST', path: '/public/store', key: 'wrong', body: '{not json' });
    expect(res.status).toBe(401);
  });

  it('answers 401 when the key header is missing, as API Gateway does without calling the authorizer', async () => {
    const res = await listWith();
    expect(res.status).toBe(401);
  });

  it('revokes by key id, refused from the next request; another tenant cannot name the key', async () => {
    const issued = await tenantService.issueApiKey(tenant.tenantId, { scope: 'public' });
    expect((await listWith(issued.key)).status).toBe(200);
    await apiKeys.revokeKey(tenant.tenantId, { keyId: issued.keyId, actor: { operator: true } });
    expect((await listWith(issued.key)).status).toBe(401);
    expect((await apiKeys.listKeys(tenant.tenantId)).find((k) => k.id === issued.keyId)?.revoked_at).toBeTruthy();
    await expect(apiKeys.revokeKey(other.tenantId, { keyId: issued.keyId, actor: { operator: true } })).rejects.toThrow(
      /no key with that id/,
    );
  });

  it("the operator's issue-key and revoke-key go through the audited key service: the audit log lists both, and the revoked key is refused at once", async () => {
    // Prepare: a gateway that caches the authorizer's answer, as API Gateway does, warmed with the key.
    const cached = inProcess('public', 300);
    const issued = await operator(['issue-key', '--tenant', String(tenant.tenantId), '--scope', 'public', '--name', 'Caixa 3']);
    const [, id, key] = /public key ([0-9a-f]{12}) for tenant \d+ \(shown once, store it now\):\n(\S+)/.exec(issued.stdout) ?? [];
    expect((await cached({ path: '/public/store', key })).status).toBe(200);

    // Act
    const revoked = await operator(['revoke-key', '--key', key!]);

    // Assess: the message is true on the next request, through the same cached answer.
    expect(revoked.stdout).toContain(`key ${id} of tenant ${tenant.tenantId} revoked: refused from the next request`);
    expect((await cached({ path: '/public/store', key })).status).toBe(401);
    const { data } = await tenantService.auditEntries(tenant.tenantId, { limit: 10 });
    expect(data.filter((entry) => entry.changes.some((change) => change.path.startsWith(`keys[id=${id}]`)))).toEqual([
      expect.objectContaining({ action: 'key.revoke', actor: { operator: true } }),
      expect.objectContaining({
        action: 'key.issue',
        actor: { operator: true },
        changes: [{ path: `keys[id=${id}]`, old: null, new: { name: 'Caixa 3', scope: 'public', expires_at: null } }],
      }),
    ]);
    expect(JSON.stringify(data)).not.toContain(key);
    const again = await operator(['revoke-key', '--tenant', String(other.tenantId), '--key-id', id!]).catch(
      (error: { stderr: string }) => error,
    );
    expect((again as { stderr: string }).stderr).toContain('admin: no such key.');
  }, 90_000);

  it('stores keys and user tokens only as SHA-256 hashes', async () => {
    const { Items = [] } = await db().client.send(
      new QueryCommand({
        TableName: db().tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.apiKeyCollection(tenant.tenantId) },
      }),
    );
    expect(Items.length).toBeGreaterThanOrEqual(2);
    const raw = JSON.stringify(Items);
    expect(raw).not.toContain(tenant.key);
    expect(raw).not.toContain(tenant.chatbotKey);
    expect(Items.map((i) => i.pk)).toContain(`APIKEY#${hashSecret(tenant.key)}`);

    const { Items: users = [] } = await db().client.send(
      new QueryCommand({
        TableName: db().tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.userCollection(tenant.tenantId) },
      }),
    );
    expect(users).toHaveLength(2);
    expect(JSON.stringify(users)).not.toContain(tenant.userToken);
  });
});

describe('user tokens', () => {
  it('resolve to the user and its scope in their own tenant', async () => {
    expect(await tenantService.resolveUser(tenant.tenantId, tenant.userToken)).toMatchObject({ name: 'full', scope: 'all' });
    expect(await tenantService.resolveUser(tenant.tenantId, tenant.limitedToken)).toMatchObject({
      name: 'limited',
      scope: { stores: [1], groups: [1] },
    });
  });

  it('are worthless in another tenant, and missing or unknown ones are refused', async () => {
    await expect(tenantService.resolveUser(other.tenantId, tenant.userToken)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(tenantService.resolveUser(tenant.tenantId, undefined)).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(tenantService.resolveUser(tenant.tenantId, 'sut_nope')).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('are checked before anything about the request on the routes that need one: 401 first, then the 4xx', async () => {
    const badQuery = { path: '/public/customer', key: tenant.key, query: { limit: 0 } };
    expect((await publicApi(badQuery)).status).toBe(401);
    expect((await publicApi({ ...badQuery, query: { limit: 0, token: 'sut_wrong' } })).status).toBe(401);
    expect((await publicApi({ ...badQuery, query: { limit: 0, token: tenant.userToken } })).status).toBe(422);
    const evaluations = { path: '/public/rating/formbuilder', key: tenant.key, query: { start_date: 'yesterday' } };
    expect((await publicApi(evaluations)).status).toBe(401);
    expect((await publicApi({ ...evaluations, headers: { 'x-service-user-token': tenant.userToken } })).status).toBe(422);
    const badBody = { method: 'PUT', path: '/public/employee/1/stores', key: tenant.key, body: '{not json' };
    expect((await publicApi(badBody)).status).toBe(401);
    expect((await publicApi({ ...badBody, headers: { 'x-service-user-token': tenant.userToken } })).status).toBe(400);
    expect((await publicApi({ ...badBody, body: { stores: 'all' } })).status).toBe(401);
  });
});
