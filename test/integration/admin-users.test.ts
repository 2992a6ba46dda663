import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { ENV } from '../../shared/config.js';
import { findUserByName } from '../../shared/adapters/tenant-access-repository.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

const api = inProcess('public');
const gateway = createGateway({ api: 'public' });
const USERS = '/public/admin/users';
const PASSWORD = 'Usuarios-test-pass-1!';
let tenant: TestTenant;

beforeAll(async () => {
  tenant = await newTenant();
});

const create = (body: unknown, key = tenant.adminKey, token?: string) =>
  api({ method: 'POST', path: USERS, key, body, ...(token ? { headers: { 'x-service-user-token': token } } : {}) });
const patch = (name: string, body: unknown, key = tenant.adminKey, token?: string) =>
  api({
    method: 'PATCH',
    path: `${USERS}/${encodeURIComponent(name)}`,
    key,
    body,
    ...(token ? { headers: { 'x-service-user-token': token } } : {}),
  });
const address = (who: string) => `${who}-${tenant.tenantId}@usuarios.example`;
/** A route that needs a user token: 200 while the token works, 401 once it does not. */
const answers = (token: string) => api({ path: '/public/answers', key: tenant.key, query: { token } });
const pool = () => cognitoClient(process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER!);
const cognitoUser = (email: string) => pool().send(new AdminGetUserCommand({ UserPoolId: process.env[ENV.userPoolId]!, Username: email }));

/** Signs a created user in as they would after the invitation (the emulator takes any temporary password). */
async function signIn(email: string) {
  const idp = cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!);
  await cognitoUserDirectory(process.env[ENV.userPoolId]!).setPassword(email, PASSWORD);
  const outcome = await idp.signIn(email, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  return outcome.tokens;
}

describe('POST /public/admin/users', () => {
  it('creates the tenant user with a token shown once and the Cognito user bound to the tenant, invited by e-mail', async () => {
    // Act
    const email = address('nova');
    const res = await create({ email: email.toUpperCase(), scope: { stores: [1], groups: [1] } });
    const listing = await api({ path: USERS, key: tenant.adminKey });
    const directory = await cognitoUser(email);

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: email,
      scope: { stores: [1], groups: [1] },
      role: 'member',
      disabled_at: null,
      invited: 'created',
    });
    expect(res.body.token).toMatch(/^sut_/);
    expect((await answers(res.body.token)).status).toBe(200);
    expect(listing.body.data.find((u: { name: string }) => u.name === email)).toEqual({
      name: email,
      scope: { stores: [1], groups: [1] },
      role: 'member',
      created_at: res.body.created_at,
      disabled_at: null,
      phone_last4: null,
    });
    expect(listing.text).not.toContain(res.body.token);
    expect(directory.UserStatus).toBe('FORCE_CHANGE_PASSWORD');
    expect(directory.UserAttributes).toEqual(expect.arrayContaining([{ Name: 'custom:tenant_id', Value: String(tenant.tenantId) }]));
  });

  it('answers 409 for a user that exists and 400 naming every wrong field, creating nothing', async () => {
    const email = address('dup');
    await create({ email, scope: 'all' });
    const before = (await api({ path: USERS, key: tenant.adminKey })).body;

    const again = await create({ email, scope: 'all' });
    const bad = await create({ email: 'not-an-address', scope: { stores: 'x' }, role: 'owner', extra: true });

    expect(again.status).toBe(409);
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: { path: string }) => e.path.split('.')[0]).sort()).toEqual(['email', 'extra', 'role', 'scope']);
    expect((await api({ path: USERS, key: tenant.adminKey })).body).toEqual(before);
  });
});

describe('PATCH /public/admin/users/{email}', () => {
  it("disabling a user stops their token, their pages and their session's refresh at once, and Cognito's user", async () => {
    // Prepare: a signed-in manager with a token.
    const email = address('desligar');
    const { body: created } = await create({ email, scope: 'all' });
    const { idToken, refreshToken } = await signIn(email);
    const page = (sid: string) => gateway({ method: 'GET', url: '/app/results', headers: { cookie: `sid=${sid}` }, body: Buffer.alloc(0) });
    expect((await page(idToken)).status).toBe(200);
    expect((await answers(created.token)).status).toBe(200);

    // Act
    const res = await patch(email, { disabled: true });
    const refreshed = await gateway({
      method: 'GET',
      url: '/app/session/refresh?next=%2Fapp%2Fresults',
      headers: { cookie: `srt=${refreshToken}` },
      body: Buffer.alloc(0),
    });

    // Assess
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: email, disabled_at: expect.any(String) });
    expect((await answers(created.token)).status).toBe(401);
    expect((await page(idToken)).status).not.toBe(200);
    expect([refreshed.status, refreshed.headers.location]).toEqual([303, '/app/sign-in?next=%2Fapp%2Fresults']);
    expect(refreshed.cookies?.some((c) => c.startsWith('sid=;'))).toBe(true);
    expect((await cognitoUser(email)).Enabled).toBe(false);

    // Enabled again: the token works, and Cognito lets them sign in.
    const enabled = await patch(email, { disabled: false });
    expect(enabled.body.disabled_at).toBeNull();
    expect((await answers(created.token)).status).toBe(200);
    expect((await cognitoUser(email)).Enabled).toBe(true);
  });

  it('changes scope and role, answers 404 for an unknown user, 400 for an empty change', async () => {
    const email = address('escopo');
    const { body: created } = await create({ email, scope: 'all' });

    const res = await patch(email, { scope: { stores: [2], groups: [] }, role: 'admin' });
    const unknown = await patch(address('ninguem'), { role: 'admin' });
    const empty = await patch(email, {});

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ scope: { stores: [2], groups: [] }, role: 'admin' });
    expect(unknown.status).toBe(404);
    expect(empty.status).toBe(400);
    expect((await api({ path: '/public/answers', key: tenant.key, query: { token: created.token, store: 1 } })).status).toBe(404);
  });

  it('finds the user by their address written in capitals, as POST stored it in lower case', async () => {
    const email = address('maiusculas');
    await create({ email, scope: 'all' });
    const res = await patch(email.toUpperCase(), { scope: { stores: [1], groups: [] } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: email, scope: { stores: [1], groups: [] } });
  });
});

describe("a user's phone through the users API", () => {
  const stored = async (email: string) => (await findUserByName(tenant.tenantId, email))?.phone;
  const lastAudit = async () => (await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 1 } })).body.data[0];

  it('is normalised to E.164 when created, listed by its last 4 digits only, and audited without its value', async () => {
    const email = address('celular');
    const res = await create({ email, scope: 'all', phone: '(11) 98765-4321' });
    const audit = await lastAudit();
    const listing = await api({ path: USERS, key: tenant.adminKey });

    expect(res.status).toBe(201);
    expect(res.body.phone_last4).toBe('4321');
    expect(await stored(email)).toBe('+5511987654321');
    expect(listing.body.data.find((u: { name: string }) => u.name === email).phone_last4).toBe('4321');
    expect(listing.text).not.toContain('987654321');
    expect(audit).toMatchObject({ action: 'user.create', changes: [{ new: { scope: 'all', role: 'member', phone: '(hidden)' } }] });
    expect(JSON.stringify(audit)).not.toContain('98765');
  });

  it('is changed and removed (null) by PATCH, the audit log saying that it changed and never what it is', async () => {
    const email = address('troca');
    await create({ email, scope: 'all', phone: '+55 21 99876-1234' });

    const changed = await patch(email, { phone: '11 91234-5678' });
    const changeAudit = await lastAudit();
    const removed = await patch(email, { phone: null });
    const removeAudit = await lastAudit();
    const kept = await patch(email, { role: 'admin' });

    expect(changed.status).toBe(200);
    expect(changed.body.phone_last4).toBe('5678');
    expect(changeAudit.changes).toEqual([{ path: `users[name=${email}].phone`, old: '(hidden)', new: '(hidden)' }]);
    expect(removed.status).toBe(200);
    expect(removed.body.phone_last4).toBeNull();
    expect(removeAudit.changes).toEqual([{ path: `users[name=${email}].phone`, old: '(hidden)', new: null }]);
    expect(kept.body.phone_last4).toBeNull();
    expect(await stored(email)).toBeUndefined();
    expect(JSON.stringify([changeAudit, removeAudit])).not.toMatch(/91234|99876/);
  });

  it('refuses a phone that is no phone with 400 naming the field, without echoing it, and changes nothing', async () => {
    const email = address('ruim');
    await create({ email, scope: 'all', phone: '11 97777-0000' });

    const bad = await patch(email, { phone: '0800-NOT-A-PHONE' });
    const long = await create({ email: address('longo'), scope: 'all', phone: '1'.repeat(25) });

    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([{ path: 'phone', message: 'is not a phone number' }]);
    expect(bad.text).not.toContain('NOT-A-PHONE');
    expect(long.status).toBe(400);
    expect(long.text).not.toContain('1'.repeat(25));
    expect(await stored(email)).toBe('+5511977770000');
    expect(await findUserByName(tenant.tenantId, address('longo'))).toBeUndefined();
  });
});

describe('the tenant-admin role', () => {
  it('lets a user with role admin use the admin routes with a public key and their token; refuses a member with 403', async () => {
    // Prepare
    const { body: admin } = await create({ email: address('chefe'), scope: 'all', role: 'admin' });
    const { body: member } = await create({ email: address('membro'), scope: 'all' });

    // Act
    const asAdmin = await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': admin.token } });
    const made = await create({ email: address('feito-por-admin'), scope: 'all' }, tenant.key, admin.token);
    const asMember = await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': member.token } });
    const memberMakes = await create({ email: address('nao'), scope: 'all' }, tenant.key, member.token);
    const wrongToken = await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': 'sut_wrong' } });
    const noToken = await api({ path: '/public/admin/config', key: tenant.key });
    await patch(admin.name, { disabled: true });
    const disabledAdmin = await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': admin.token } });

    // Assess
    expect(asAdmin.status).toBe(200);
    expect(made.status).toBe(201);
    expect([asMember.status, memberMakes.status, noToken.status]).toEqual([403, 403, 403]);
    expect(wrongToken.status).toBe(401);
    expect(disabledAdmin.status).toBe(401);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    const creation = audit.body.data.find(
      (e: { action: string; changes: { path: string }[] }) => e.action === 'user.create' && e.changes[0]!.path.includes('feito-por-admin'),
    );
    expect(creation.actor).toEqual({ user: admin.name });
    const disabling = audit.body.data.find(
      (e: { action: string; changes: { path: string }[] }) => e.action === 'user.update' && e.changes[0]!.path.includes('chefe'),
    );
    expect(disabling.changes).toEqual([{ path: `users[name=${admin.name}].disabled_at`, old: null, new: expect.any(String) }]);
    expect(audit.text).not.toContain(admin.token);
  });
});

describe('an admin locking themself out', () => {
  it('refuses an admin user disabling themself or dropping their own admin role with 409, and changes nothing', async () => {
    // Prepare
    const { body: admin } = await create({ email: address('unica'), scope: 'all', role: 'admin' });
    const { body: other } = await create({ email: address('outra'), scope: 'all' });
    const asAdmin = (name: string, body: unknown) => patch(name, body, tenant.key, admin.token);

    // Act
    const disabled = await asAdmin(admin.name, { disabled: true });
    const demoted = await asAdmin(admin.name.toUpperCase(), { role: 'member' });
    const scoped = await asAdmin(admin.name, { scope: { stores: [1], groups: [] } });
    const otherDisabled = await asAdmin(other.name, { disabled: true });

    // Assess
    expect([disabled.status, disabled.body.detail]).toEqual([409, 'You cannot disable yourself: ask another admin of the tenant.']);
    expect([demoted.status, demoted.body.detail]).toEqual([409, 'You cannot drop your own admin role: ask another admin of the tenant.']);
    expect(scoped.status).toBe(200);
    expect(otherDisabled.status).toBe(200);
    const listed = (await api({ path: USERS, key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === admin.name);
    expect(listed).toMatchObject({ role: 'admin', disabled_at: null, scope: { stores: [1], groups: [] } });
    expect((await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': admin.token } })).status).toBe(
      200,
    );
  });
});
