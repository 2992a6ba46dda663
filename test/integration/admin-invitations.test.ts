import { beforeAll, describe, expect, inject, it } from 'vitest';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { findUserByName } from '../../shared/adapters/access-repository.js';
import { putDelivery } from '../../shared/adapters/tenant-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import { emailsTo, until, type Mail } from '../support/mailbox.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The users page of the workspace, through the local gateway: a manager invited there (with their mobile) gets the
 * invitation in the local SES mailbox, in the tenant's language, with a temporary password that signs in to the
 * new-password step; invited again, a new password replaces it.
 */
const gateway = createGateway({ api: 'public' });
const sesUrl = inject('sesUrl');
const SAME_ORIGIN = { origin: 'http://localhost', host: 'localhost' };
const PASSWORD = 'Convites-pages-pass-1!';
let tenant: TestTenant;
let adminCookie: string;

const get = (url: string, cookie: string) => gateway({ method: 'GET', url, headers: { cookie }, body: Buffer.alloc(0) });
const post = (url: string, fields: [string, string][], cookie = adminCookie) =>
  gateway({
    method: 'POST',
    url,
    headers: { ...SAME_ORIGIN, ...(cookie ? { cookie } : {}), 'content-type': 'application/x-www-form-urlencoded' },
    body: Buffer.from(new URLSearchParams(fields).toString()),
  });
const mailsTo = (address: string) => emailsTo<Mail>(sesUrl, address);
const passwordIn = (mail: Mail) => /Sua senha temporária: (\S+)/.exec(mail.body.text)![1]!;

beforeAll(async () => {
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, { quietHours: null, email: { from: 'pesquisa@convites.example' } });
  const admin = `admin-${tenant.tenantId}@convites.example`;
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  await tenantService.createUser(tenant.tenantId, { name: admin, scope: 'all', role: 'admin' });
  await directory.invite({ email: admin, tenantId: tenant.tenantId, temporaryPassword: 'Temp-convites-1!' });
  await directory.setPassword(admin, PASSWORD);
  const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(admin, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  adminCookie = `sid=${outcome.tokens.idToken}`;
});

describe('the users page', () => {
  it('invites a manager with their mobile: the invitation in the mailbox signs in; invited again, with a new password', async () => {
    // Act
    const email = `gerente-${tenant.tenantId}@convites.example`;
    const invited = await post('/app/admin/users', [
      ['action', 'create'],
      ['email', email],
      ['scope', 'all'],
      ['role', 'member'],
      ['phone', '(11) 98888-7777'],
    ]);
    const first = await until(async () => (await mailsTo(email))[0], `the invitation to ${email}`);
    const shown = await get(invited.headers.location!, `${adminCookie}; ${invited.cookies![0]!.split(';')[0]}`);
    const resent = await post('/app/admin/users', [
      ['action', 'resend'],
      ['name', email],
    ]);
    const second = await until(async () => (await mailsTo(email))[1], `the second invitation to ${email}`);

    // Assess: the page says where the invitation went, never the password; the mobile is stored in E.164.
    expect([invited.status, invited.headers.location]).toEqual([303, '/app/admin/users?done=invited']);
    expect(shown.body.toString()).toContain(`Convite enviado a ${email}, com uma senha temporária.`);
    expect(shown.body.toString()).not.toContain(passwordIn(first));
    expect((await findUserByName(tenant.tenantId, email))?.phone).toBe('+5511988887777');
    expect([resent.status, resent.headers.location]).toEqual([303, '/app/admin/users?done=resent']);
    expect(passwordIn(second)).not.toBe(passwordIn(first));
    // (cognito-local takes any password while one is temporary: that the first one stops working is Cognito's to check.)
    const signIn = await post(
      '/app/sign-in',
      [
        ['email', email],
        ['password', passwordIn(second)],
      ],
      '',
    );
    expect(signIn.status).toBe(200);
    expect(signIn.body.toString()).toContain('action="/app/sign-in/new-password"');
  });

  it('refuses to invite again a user who has signed in, sending nothing', async () => {
    const email = `entrou-${tenant.tenantId}@convites.example`;
    await post('/app/admin/users', [
      ['action', 'create'],
      ['email', email],
      ['scope', 'all'],
      ['role', 'member'],
    ]);
    await until(async () => (await mailsTo(email))[0], `the invitation to ${email}`);
    await cognitoUserDirectory(process.env[ENV.userPoolId]!).setPassword(email, PASSWORD);

    const again = await post('/app/admin/users', [
      ['action', 'resend'],
      ['name', email],
    ]);

    expect(again.status).toBe(400);
    expect(again.body.toString()).toContain('Este usuário já entrou');
    expect(await mailsTo(email)).toHaveLength(1);
  });
});
