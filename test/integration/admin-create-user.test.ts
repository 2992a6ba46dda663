import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { findUserByName } from '../../shared/adapters/access-repository.js';
import { ENV } from '../../shared/config.js';
import { inProcess } from '../support/api.js';
import { command } from '../support/commands.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The operator's `create-user`, run as `npm run admin -- create-user` runs it: a user token, or a manager who signs in
 * (the tenant user and its Cognito user). With the test's environment the command takes the table and the user pool
 * as on AWS (TABLE_NAME and USER_POOL_ID named), so Cognito makes and sends the temporary password.
 */
const admin = (args: string[]) => command('infra/admin.ts', ['create-user', ...args]);
/** A refused command: its exit code and what it told the operator. */
const refusal = (args: string[]) =>
  admin(args).then(
    () => ({ code: 0, stderr: '' }),
    (error: { code: number; stderr: string }) => ({ code: error.code, stderr: error.stderr }),
  );

const api = inProcess('public');
const signInOf = async (email: string) => {
  const { UserAttributes = [], UserStatus } = await cognitoClient(process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER!).send(
    new AdminGetUserCommand({ UserPoolId: process.env[ENV.userPoolId]!, Username: email }),
  );
  return { tenant: UserAttributes.find((attribute) => attribute.Name === 'custom:tenant_id')?.Value, status: UserStatus };
};

let tenant: TestTenant;
let other: TestTenant;
const address = (who: string) => `${who}-${tenant.tenantId}@operador.example`;

beforeAll(async () => {
  [tenant, other] = await Promise.all([newTenant(), newTenant()]);
});

describe('npm run admin -- create-user', () => {
  it('--name prints a user token once, which works at once with the scope given', async () => {
    const { stdout } = await admin(['--tenant', String(tenant.tenantId), '--name', 'caixa-central', '--stores', '1', '--groups', '1']);

    const token = /^user "caixa-central" created; token \(shown once, store it now\):\n(sut_\S+)\n$/.exec(stdout)?.[1];
    expect(token, stdout).toBeDefined();
    const answers = await api({ path: '/public/answers', key: tenant.key, headers: { 'x-service-user-token': token! } });
    expect(answers.status).toBe(200);
    expect((await findUserByName(tenant.tenantId, 'caixa-central'))?.scope).toEqual({ stores: [1], groups: [1] });
  });

  it('--email invites a manager bound to the tenant; again, it changes their scope and invites no one', async () => {
    const email = address('Gerente');

    const invited = await admin(['--tenant', String(tenant.tenantId), '--email', email, '--stores', '1']);
    const first = await findUserByName(tenant.tenantId, email.toLowerCase());
    const again = await admin(['--tenant', String(tenant.tenantId), '--email', email, '--all']);

    expect(invited.stdout).toBe(
      `manager ${email.toLowerCase()} invited: Cognito e-mails the temporary password; they choose a password at first sign-in.\n`,
    );
    expect(first?.scope).toEqual({ stores: [1], groups: [] });
    expect(await signInOf(email.toLowerCase())).toEqual({ tenant: String(tenant.tenantId), status: 'FORCE_CHANGE_PASSWORD' });
    expect(again.stdout).toBe(`manager ${email.toLowerCase()}: scope updated (already in the user pool; no new invitation)\n`);
    expect((await findUserByName(tenant.tenantId, email.toLowerCase()))?.scope).toBe('all');
  });

  it("refuses an address that signs in to another tenant, writing nothing for this one and leaving the other's as it was", async () => {
    const email = address('outra');
    await admin(['--tenant', String(tenant.tenantId), '--email', email, '--all']);

    const refused = await refusal(['--tenant', String(other.tenantId), '--email', email, '--all']);

    expect(refused).toEqual({
      code: 1,
      stderr: expect.stringContaining(
        'admin: This e-mail address cannot be invited to this tenant: invite the manager with another address.\n',
      ) as unknown as string,
    });
    expect(await findUserByName(other.tenantId, email)).toBeUndefined();
    expect(await signInOf(email)).toEqual({ tenant: String(tenant.tenantId), status: 'FORCE_CHANGE_PASSWORD' });
    expect((await findUserByName(tenant.tenantId, email))?.scope).toBe('all');
  });

  it('names what is wrong in a command it refuses, and writes nothing', async () => {
    const id = String(tenant.tenantId);

    const refused = await Promise.all([
      refusal(['--tenant', id, '--all']),
      refusal(['--tenant', id, '--name', 'sem-escopo']),
      refusal(['--tenant', id, '--email', 'not-an-address', '--all']),
      refusal(['--tenant', '99999999', '--email', address('ninguem'), '--all']),
      refusal(['--tenant', '99999999', '--name', 'orfao', '--all']),
      refusal(['--tenant', id, '--name', 'lojas', '--stores', '1,x']),
    ]);

    expect(refused.map(({ code }) => code)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(refused.map(({ stderr }) => stderr.split('\n').find((line) => line.startsWith('admin: ') && !line.includes('using')))).toEqual([
      'admin: give --name (a user token) or --email (a manager who signs in).',
      'admin: give --all, or --stores and/or --groups.',
      'admin: Not an e-mail address.',
      'admin: tenant 99999999 does not exist.',
      'admin: tenant 99999999 does not exist.',
      'admin: --stores must be a positive integer.',
    ]);
    expect(await findUserByName(tenant.tenantId, 'sem-escopo')).toBeUndefined();
    expect(await findUserByName(tenant.tenantId, 'lojas')).toBeUndefined();
    expect(await findUserByName(tenant.tenantId, 'not-an-address')).toBeUndefined();
    expect(await findUserByName(99999999, 'orfao')).toBeUndefined();
  });
});
