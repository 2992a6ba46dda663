import { validateHeaderValue } from 'node:http';
import { CreateUserPoolClientCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { httpEvent } from '../../infra/local/events.js';
import { createGateway } from '../../infra/local/gateway.js';
import { invoke } from '../../infra/local/invoke.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { attemptItemKey } from '../../shared/adapters/sign-in-attempts.js';
import { SIGN_IN_LIMITS } from '../../shared/session/service.js';
import { TABLE } from '../../shared/table.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The session as the workspace's pages see it, through the local gateway's real session authorizer and handlers
 * against the Cognito emulator: only a token Cognito issued to the workspace's client, for a user the tenant has,
 * opens a page.
 */
const gateway = createGateway({ api: 'public' });
const get = (url: string, cookie?: string) => gateway({ method: 'GET', url, headers: cookie ? { cookie } : {}, body: Buffer.alloc(0) });
const post = (url: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
  gateway({
    method: 'POST',
    url,
    headers: { origin: 'http://localhost', host: 'localhost', 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: Buffer.from(new URLSearchParams(form).toString()),
  });
const PASSWORD = 'Sessao-test-pass-1!';
let tenant: TestTenant;
let email: string;

async function signedIn(address: string, clientId = process.env[ENV.userPoolClientId]!) {
  const outcome = await cognitoIdentityProvider(() => clientId).signIn(address, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  return outcome.tokens;
}

async function manager(address: string, inTable = true) {
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  if (inTable) await tenantService.createUser(tenant.tenantId, { name: address, scope: 'all' });
  await directory.invite({ email: address, tenantId: tenant.tenantId, temporaryPassword: 'Temp-session-1!' });
  await directory.setPassword(address, PASSWORD);
}

beforeAll(async () => {
  tenant = await newTenant();
  email = `sessao-${tenant.tenantId}@test.local`;
  await manager(email);
});

describe('the workspace session', () => {
  it('opens a page with the ID token Cognito issued, and sends a tampered one, or none, to refresh and sign in', async () => {
    const { idToken } = await signedIn(email);
    expect((await get('/app/results', `sid=${idToken}`)).status).toBe(200);

    const [header, payload, signature] = idToken.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as Record<string, unknown>;
    const forged = [header, Buffer.from(JSON.stringify({ ...claims, 'custom:tenant_id': '1' })).toString('base64url'), signature].join('.');
    for (const cookie of [`sid=${forged}`, 'sid=not-a-token', undefined]) {
      const answer = await get('/app/results?journey=loja', cookie);
      expect(answer.status, String(cookie).slice(0, 20)).toBe(303);
      expect(answer.headers.location).toBe('/app/session/refresh?next=%2Fapp%2Fresults%3Fjourney%3Dloja');
    }
  });

  it("refuses a token Cognito issued to another of the pool's clients (its audience is not the workspace)", async () => {
    const { UserPoolClient } = await cognitoClient(process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER!).send(
      new CreateUserPoolClientCommand({
        UserPoolId: process.env[ENV.userPoolId]!,
        ClientName: `other-${tenant.tenantId}`,
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH'],
      }),
    );
    const { idToken } = await signedIn(email, UserPoolClient!.ClientId!);
    expect((await get('/app/results', `sid=${idToken}`)).status).toBe(303);
  });

  it('renews the ID token from the refresh cookie and goes back to the page asked for; a revoked one goes to sign in', async () => {
    const { refreshToken } = await signedIn(email);
    const renewed = await get('/app/session/refresh?next=%2Fapp%2Fresults%3Fjourney%3Decommerce', `srt=${refreshToken}`);
    expect([renewed.status, renewed.headers.location]).toEqual([303, '/app/results?journey=ecommerce']);
    const sid = renewed.cookies!.find((c) => c.startsWith('sid='))!.split(';')[0]!;
    expect((await get('/app/results?journey=ecommerce', sid)).status).toBe(200);

    const out = await gateway({
      method: 'POST',
      url: '/app/session/sign-out',
      headers: { cookie: `srt=${refreshToken}`, origin: 'http://localhost', host: 'localhost' },
      body: Buffer.alloc(0),
    });
    expect([out.status, out.headers.location]).toEqual([303, '/app/sign-in']);
    expect(out.cookies!.map((c) => c.split(';')[0])).toEqual(['sid=', 'srt=']);
    const refused = await get('/app/session/refresh?next=%2Fapp%2Fresults', `srt=${refreshToken}`);
    expect([refused.status, refused.headers.location]).toEqual([303, '/app/sign-in?next=%2Fapp%2Fresults']);
  });

  it('shows a user Cognito knows but the tenant does not that they have no access, and clears the session', async () => {
    const stranger = `sem-acesso-${tenant.tenantId}@test.local`;
    await manager(stranger, false);
    const { idToken } = await signedIn(stranger);
    const answer = await get('/app/results', `sid=${idToken}`);
    expect(answer.status).toBe(403);
    expect(answer.body.toString('utf8')).toContain('Esta conta não tem acesso ao painel.');
    expect(answer.cookies!.map((c) => c.split(';')[0])).toEqual(['sid=', 'srt=']);
  });

  it('answers a bad results query with the page saying what is wrong, as the signed-in user', async () => {
    const { idToken } = await signedIn(email);
    const answer = await get('/app/results?journey=nenhuma&from=2026-02-30&to=2026-01-01', `sid=${idToken}`);
    expect(answer.status).toBe(400);
    const html = answer.body.toString('utf8');
    expect(html).toContain('Jornada desconhecida.');
    expect(html).toContain('Informe as datas como AAAA-MM-DD, entre 1900 e 2100.');
  });

  it('goes back after a refresh or a sign-in to a Location that holds only what a header may carry', async () => {
    const { refreshToken } = await signedIn(email);
    const renewed = await get('/app/session/refresh?next=%2Fapp%2F%E3%80%82', `srt=${refreshToken}`);
    expect([renewed.status, renewed.headers.location]).toEqual([303, '/app/%E3%80%82']);
    for (const [next, location] of [
      ['/app/\u3002x', '/app/%E3%80%82x'],
      ['/app/\u0000x', '/app/results'],
      ['/app/x\r\nset-cookie: a=b', '/app/results'],
    ]) {
      const answer = await post('/app/sign-in', { email, password: PASSWORD, next: next! });
      expect([answer.status, answer.headers.location], JSON.stringify(next)).toEqual([303, location]);
      expect(() => validateHeaderValue('location', answer.headers.location!)).not.toThrow();
    }
  });

  it('refuses a sign-in posted from another scheme of the same host', async () => {
    const answer = await post('/app/sign-in', { email, password: PASSWORD }, { origin: 'https://localhost' });
    expect(answer.status).toBe(403);
    expect(answer.cookies).toBeUndefined();
    expect((await post('/app/sign-in', { email, password: PASSWORD })).status).toBe(303);
  });

  it("refuses a new-password challenge cookie made up for another, confirmed account, and keeps that account's password", async () => {
    const victim = `confirmada-${tenant.tenantId}@test.local`;
    await manager(victim);
    const forged = Buffer.from(JSON.stringify([victim, 'any-session'])).toString('base64url');
    const answer = await post(
      '/app/sign-in/new-password',
      { password: 'Tomada-de-conta-1!', confirm: 'Tomada-de-conta-1!' },
      { cookie: `sch=${forged}` },
    );
    expect(answer.status).toBe(401);
    expect(answer.cookies ?? []).not.toContainEqual(expect.stringMatching(/^sid=./));
    expect((await post('/app/sign-in', { email: victim, password: 'Tomada-de-conta-1!' })).status).toBe(401);
    expect((await post('/app/sign-in', { email: victim, password: PASSWORD })).status).toBe(303);
  });

  it('has an invited manager choose a password with the sealed challenge the sign-in gave, only for themself', async () => {
    const invited = `convidada-${tenant.tenantId}@test.local`;
    await tenantService.createUser(tenant.tenantId, { name: invited, scope: 'all' });
    await cognitoUserDirectory(process.env[ENV.userPoolId]!).invite({
      email: invited,
      tenantId: tenant.tenantId,
      temporaryPassword: 'Temp-session-2!',
    });
    const first = await post('/app/sign-in', { email: invited, password: 'Temp-session-2!' });
    expect(first.status).toBe(200);
    const sch = first.cookies!.find((c) => c.startsWith('sch='))!.split(';')[0]!;
    expect(Buffer.from(sch.slice(4), 'base64url').toString('latin1')).not.toContain(invited);
    const chosen = await post(
      '/app/sign-in/new-password',
      { password: 'Escolhida-1-senha!', confirm: 'Escolhida-1-senha!' },
      { cookie: sch },
    );
    expect([chosen.status, chosen.headers.location]).toEqual([303, '/app/results']);
  });

  it('locks an account after its failures, the right password too, until its window ends (the lock item expires then)', async () => {
    const locked = `tentativas-${tenant.tenantId}@test.local`;
    await manager(locked);
    for (let i = 0; i < SIGN_IN_LIMITS.perAccount; i++)
      expect((await post('/app/sign-in', { email: locked, password: `errada-${i}` })).status).toBe(401);
    const refused = await post('/app/sign-in', { email: locked, password: PASSWORD });
    expect(refused.status).toBe(429);
    expect(refused.body.toString('utf8')).toContain('Muitas tentativas. Espere alguns minutos e tente de novo.');
    expect(refused.cookies).toBeUndefined();
    // Retry-After: the seconds left of the window that began with the first failure (issue 58).
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(SIGN_IN_LIMITS.windowSeconds - 60);
    expect(retryAfter).toBeLessThanOrEqual(SIGN_IN_LIMITS.windowSeconds);

    const { client, tableName } = db();
    const key = attemptItemKey({ kind: 'account', id: locked });
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    expect(Item?.failures).toBe(SIGN_IN_LIMITS.perAccount);
    // The item expires with the window (TTL in epoch seconds) and names no address.
    expect(Math.abs(Number(Item?.[TABLE.ttlAttribute]) - (Date.now() / 1000 + SIGN_IN_LIMITS.windowSeconds))).toBeLessThan(60);
    expect(JSON.stringify(Item)).not.toContain(locked);

    // The window over (as its end is moved to a second ago): the right password signs in, and the count is gone.
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: key,
        UpdateExpression: 'SET #ttl = :past',
        ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute },
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    expect((await post('/app/sign-in', { email: locked, password: PASSWORD })).status).toBe(303);
    expect((await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }))).Item).toBeUndefined();
  });

  it("locks an address that failed on many accounts, for any account, under the sign-in function's own grants", async () => {
    // An address of the documentation range of its own (the gateway's requests all come from 127.0.0.1).
    const address = `198.51.100.${tenant.tenantId % 250}`;
    const { handler } = await import('../../functions/http/post-sign-in.js');
    const signIn = (email: string, password: string, from = address) => {
      const event = httpEvent({
        method: 'POST',
        routePath: '/app/sign-in',
        rawPath: '/app/sign-in',
        headers: { origin: 'http://localhost', host: 'localhost', 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ email, password }).toString(),
      });
      event.requestContext.http.sourceIp = from;
      return invoke('postSignIn', handler, event) as Promise<{ statusCode: number }>;
    };
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress; i++)
      expect((await signIn(`ninguem-${i}-${tenant.tenantId}@test.local`, 'x')).statusCode).toBe(401);
    expect((await signIn(email, PASSWORD)).statusCode).toBe(429);
    expect((await signIn(email, PASSWORD, `203.0.113.${tenant.tenantId % 250}`)).statusCode).toBe(303);
  }, 60_000);
});
