import { CreateUserPoolClientCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { createUser } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The session as the workspace's pages see it, through the local gateway's real session authorizer and handlers
 * against the Cognito emulator: only a token Cognito issued to the workspace's client, for a user the tenant has,
 * opens a page.
 */
const gateway = createGateway({ api: 'public' });
const get = (url: string, cookie?: string) => gateway({ method: 'GET', url, headers: cookie ? { cookie } : {}, body: Buffer.alloc(0) });
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
  if (inTable) await createUser(tenant.tenantId, address, 'all');
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
});
