import { AdminGetUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cognitoClient } from '../../infra/local/cognito.js';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { ENV } from '../../shared/config.js';
import { findUserByName } from '../../shared/adapters/access-repository.js';
import { inProcess } from '../support/api.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { emailsOf, mailTo } from '../support/mailbox.js';
import { putDelivery, putSettings } from '../../shared/adapters/tenant-repository.js';

/** The tenant's keys as listed, but their last use (which any call with a key may move). */
const keysOf = (listed: { body: { data: { last_used_at?: unknown }[] } }) => listed.body.data.map(({ last_used_at: _, ...key }) => key);

const api = inProcess('public');
const gateway = createGateway({ api: 'public' });
const USERS = '/public/admin/users';
const PASSWORD = 'Usuarios-test-pass-1!';
let tenant: TestTenant;

/** The tenant's e-mail sender, which the invitations are sent from. */
const SENDER = { quietHours: null, email: { from: 'pesquisa@usuarios.example' } };

beforeAll(async () => {
  tenant = await newTenant();
  await putDelivery(tenant.tenantId, SENDER);
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
const answers = (token: string) => api({ path: '/public/answers', key: tenant.key, headers: { 'x-service-user-token': token } });
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
      digest: 'weekly',
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

  it("refuses with 409 an address whose sign-in is another tenant's, naming no tenant and writing nothing", async () => {
    // Prepare: the address is a manager of another tenant (one Cognito account per address in the deployment's pool).
    const other = await newTenant();
    const email = address('de-outro');
    const theirs = await create({ email, scope: 'all' }, other.adminKey);
    const auditBefore = (await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 100 } })).body.data;

    // Act
    const res = await create({ email: email.toUpperCase(), scope: 'all' });

    // Assess: a clear refusal that says neither that the address has an account nor whose it is.
    expect(theirs.status).toBe(201);
    expect(res.status).toBe(409);
    expect(res.body.detail).toBe('This e-mail address cannot be invited to this tenant: invite the manager with another address.');
    expect(res.body.errors).toEqual([{ path: 'email', message: 'cannot be invited to this tenant' }]);
    expect(res.text).not.toMatch(/exist|another tenant|other tenant/i);
    expect(await findUserByName(tenant.tenantId, email)).toBeUndefined();
    expect((await api({ path: USERS, key: tenant.adminKey })).body.data.map((u: { name: string }) => u.name)).not.toContain(email);
    expect((await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 100 } })).body.data).toEqual(auditBefore);
    // The other tenant's manager keeps their sign-in, bound to their tenant.
    const directory = await cognitoUser(email);
    expect(directory.UserAttributes).toEqual(expect.arrayContaining([{ Name: 'custom:tenant_id', Value: String(other.tenantId) }]));
    expect(directory.Enabled).toBe(true);
  });

  it('makes one user of two invitations of the same address sent at once; the other is answered 409', async () => {
    const email = address('ao-mesmo-tempo');

    const answers = await Promise.all([create({ email, scope: 'all' }), create({ email, scope: { stores: [1], groups: [] } })]);

    expect(answers.map((res) => res.status).sort()).toEqual([201, 409]);
    const listed = (await api({ path: USERS, key: tenant.adminKey })).body.data.filter((u: { name: string }) => u.name === email);
    expect(listed).toHaveLength(1);
    const made = answers.find((res) => res.status === 201)!;
    expect(listed[0].scope).toEqual(made.body.scope);
    expect((await findUserByName(tenant.tenantId, email))?.scope).toEqual(made.body.scope);
  });

  it("answers invited: 'exists' for an address whose sign-in is already this tenant's", async () => {
    // Prepare: the sign-in exists, bound to this tenant (as the operator's invitation leaves it), without a tenant user.
    const email = address('ja-convidado');
    await cognitoUserDirectory(process.env[ENV.userPoolId]!).invite({ email, tenantId: tenant.tenantId, temporaryPassword: PASSWORD });

    // Act
    const res = await create({ email, scope: { stores: [1], groups: [] } });

    // Assess
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: email, invited: 'exists' });
    expect((await answers(res.body.token)).status).toBe(200);
  });
});

const sesUrl = inject('sesUrl');
const form = (url: string, fields: Record<string, string>, cookie?: string) =>
  gateway({
    method: 'POST',
    url,
    headers: {
      origin: 'http://localhost',
      host: 'localhost',
      'content-type': 'application/x-www-form-urlencoded',
      ...(cookie ? { cookie } : {}),
    },
    body: Buffer.from(new URLSearchParams(fields).toString()),
  });

/** The temporary password an invitation e-mails signs in at /app/sign-in to the new-password step, which ends signed in. */
async function signsInWith(email: string, password: string) {
  const first = await form('/app/sign-in', { email, password });
  expect(first.status).toBe(200);
  expect(first.body.toString('utf8')).toContain('action="/app/sign-in/new-password"');
  const sch = first.cookies!.find((c) => c.startsWith('sch='))!.split(';')[0]!;
  const chosen = await form('/app/sign-in/new-password', { password: 'Escolhida-convite-1!', confirm: 'Escolhida-convite-1!' }, sch);
  expect([chosen.status, chosen.headers.location]).toEqual([303, '/app/results']);
}

describe('the invitation e-mail', () => {
  it("e-mails the new manager through SES in the tenant's language and brand, with a temporary password that signs in once to be changed", async () => {
    // Act
    const email = address('convite');
    const res = await create({ email, scope: 'all' });
    const mail = await mailTo(sesUrl, email);

    // Assess: in the tenant's language (pt-BR), with the sign-in link and a password the answer never shows.
    expect(res.status).toBe(201);
    expect(mail.body.text).toContain('convidou você para o painel de satisfação de clientes');
    expect(mail.body.text).toContain('/app/sign-in');
    const password = mail.body.text.match(/Sua senha temporária: (\S+)/)![1]!;
    expect(password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^a-zA-Z\d]).{12,}$/);
    expect(res.text).not.toContain(password);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 100 } });
    expect(audit.text).not.toContain(password);
    await signsInWith(email, password);
  });

  it('writes the invitation in Spanish for a tenant whose language is es, and sends nothing for a second POST (409)', async () => {
    // Prepare
    const es = await newTenant();
    await putSettings(es.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
    await putDelivery(es.tenantId, SENDER);
    const email = `hola-${es.tenantId}@usuarios.example`;

    // Act
    const first = await create({ email, scope: 'all' }, es.adminKey);
    const mail = await mailTo(sesUrl, email);
    const again = await create({ email, scope: 'all' }, es.adminKey);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const emails = await emailsOf<{ destination: { to: string[] } }>(sesUrl);

    // Assess
    expect([first.status, again.status]).toEqual([201, 409]);
    expect(mail.body.text).toContain('le invitó a su panel de satisfacción de clientes');
    expect(emails.filter((e) => e.destination.to.includes(email))).toHaveLength(1);
    await signsInWith(email, mail.body.text.match(/Su contraseña temporal: (\S+)/)![1]!);
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
    expect(
      (await api({ path: '/public/answers', key: tenant.key, headers: { 'x-service-user-token': created.token }, query: { store: 1 } }))
        .status,
    ).toBe(404);
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
    expect([scoped.status, scoped.body.detail]).toEqual([403, 'You cannot change your own scope: ask another admin of the tenant.']);
    expect(otherDisabled.status).toBe(200);
    const listed = (await api({ path: USERS, key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === admin.name);
    expect(listed).toMatchObject({ role: 'admin', disabled_at: null, scope: 'all' });
    expect((await api({ path: '/public/admin/config', key: tenant.key, headers: { 'x-service-user-token': admin.token } })).status).toBe(
      200,
    );
  });
});

describe('a tenant admin with a limited scope', () => {
  const SCOPE = { stores: [1], groups: [1] };
  const audited = async () => (await api({ path: '/public/admin/audit', key: tenant.adminKey, query: { limit: 100 } })).body.data;
  const listed = async (name: string) =>
    (await api({ path: USERS, key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === name);

  it('cannot change their own scope, widen another user, grant a wider scope or touch a user who sees more, with 403 naming what', async () => {
    // Prepare
    const { body: limited } = await create({ email: address('limitada'), scope: SCOPE, role: 'admin' });
    const { body: member } = await create({ email: address('da-loja'), scope: SCOPE });
    const { body: everyStore } = await create({ email: address('todas'), scope: 'all' });
    const { body: chief } = await create({ email: address('chefe-geral'), scope: 'all', role: 'admin' });
    const asLimited = {
      create: (body: unknown) => create(body, tenant.key, limited.token),
      patch: (name: string, body: unknown) => patch(name, body, tenant.key, limited.token),
    };
    const before = await audited();

    // Act
    const selfWider = await asLimited.patch(limited.name, { scope: 'all' });
    const selfOther = await asLimited.patch(limited.name, { scope: { stores: [2], groups: [1] } });
    const createdAll = await asLimited.create({ email: address('nova-todas'), scope: 'all' });
    const createdWider = await asLimited.create({ email: address('nova-mais'), scope: { stores: [1, 2], groups: [1, 3] } });
    const widened = await asLimited.patch(member.name, { scope: { stores: [1, 2], groups: [1] } });
    const narrowedWider = await asLimited.patch(everyStore.name, { scope: SCOPE });
    const demotedChief = await asLimited.patch(chief.name, { role: 'member' });
    const disabledChief = await asLimited.patch(chief.name, { disabled: true });

    // Assess
    expect([selfWider.status, selfWider.body.detail]).toEqual([403, 'You cannot change your own scope: ask another admin of the tenant.']);
    expect([selfOther.status, selfOther.body.detail]).toEqual([403, 'You cannot change your own scope: ask another admin of the tenant.']);
    expect([createdAll.status, createdAll.body.detail]).toEqual([
      403,
      'You cannot grant a scope wider than your own: every store and group is outside it.',
    ]);
    expect([createdWider.status, createdWider.body.detail]).toEqual([
      403,
      'You cannot grant a scope wider than your own: stores 2, groups 3 are outside it.',
    ]);
    expect([widened.status, widened.body.detail]).toEqual([403, 'You cannot grant a scope wider than your own: stores 2 are outside it.']);
    const outside = 'You cannot change a user who sees stores or groups outside your own scope: ask an admin who sees them.';
    expect([narrowedWider.status, narrowedWider.body.detail]).toEqual([403, outside]);
    expect([demotedChief.status, demotedChief.body.detail]).toEqual([403, outside]);
    expect([disabledChief.status, disabledChief.body.detail]).toEqual([403, outside]);
    // Nothing changed, nothing created (in the table or the pool), nothing audited.
    expect(await listed(limited.name)).toMatchObject({ scope: SCOPE, role: 'admin' });
    expect(await listed(member.name)).toMatchObject({ scope: SCOPE, role: 'member' });
    expect(await listed(everyStore.name)).toMatchObject({ scope: 'all' });
    expect(await listed(chief.name)).toMatchObject({ role: 'admin', disabled_at: null });
    expect(await findUserByName(tenant.tenantId, address('nova-todas'))).toBeUndefined();
    expect(await findUserByName(tenant.tenantId, address('nova-mais'))).toBeUndefined();
    await expect(cognitoUser(address('nova-mais'))).rejects.toMatchObject({ name: 'UserNotFoundException' });
    expect(await audited()).toEqual(before);
  });

  it('cannot take a key, which sees every store: issuing or rotating one is refused with 403, and nothing is issued', async () => {
    // Prepare
    const { body: limited } = await create({ email: address('limitada-chaves'), scope: SCOPE, role: 'admin' });
    const { body: full } = await create({ email: address('total-chaves'), scope: 'all', role: 'admin' });
    const KEYS = '/public/admin/keys';
    const { body: spare } = await api({ method: 'POST', path: KEYS, key: tenant.adminKey, body: { scope: 'public', name: 'reserva' } });
    const asUser = (token: string, path: string, body: unknown) =>
      api({ method: 'POST', path, key: tenant.key, body, headers: { 'x-service-user-token': token } });
    const keysBefore = keysOf(await api({ path: KEYS, key: tenant.adminKey }));

    // Act
    const admin = await asUser(limited.token, KEYS, { scope: 'admin', name: 'minha' });
    const open = await asUser(limited.token, KEYS, { scope: 'public', name: 'minha' });
    const rotated = await asUser(limited.token, `${KEYS}/${spare.id}/rotate`, { grace_seconds: 60 });
    const keysAfter = keysOf(await api({ path: KEYS, key: tenant.adminKey }));
    const byFull = await asUser(full.token, KEYS, { scope: 'admin', name: 'do-admin-total' });

    // Assess
    const refusal =
      "The tenant's configuration, keys and secrets reach every store: they need an admin key or an admin user who sees every store, and this user sees some stores.";
    expect([admin.status, admin.body.detail]).toEqual([403, refusal]);
    expect([open.status, open.body.detail]).toEqual([403, refusal]);
    expect([rotated.status, rotated.body.detail]).toEqual([403, refusal]);
    expect(keysAfter).toEqual(keysBefore);
    expect(byFull.status).toBe(201);
  });

  it('may still grant within their scope, make an admin there, and resend their own unchanged scope', async () => {
    // Prepare
    const { body: limited } = await create({ email: address('limitada-ok'), scope: { stores: [1, 2], groups: [1] }, role: 'admin' });
    const { body: member } = await create({ email: address('da-loja-ok'), scope: { stores: [1], groups: [] } });
    const as = {
      create: (body: unknown) => create(body, tenant.key, limited.token),
      patch: (name: string, body: unknown) => patch(name, body, tenant.key, limited.token),
    };

    // Act
    const made = await as.create({ email: address('nova-ok'), scope: { stores: [2], groups: [1] } });
    const raised = await as.patch(member.name, { scope: { stores: [2, 1], groups: [1] }, role: 'admin' });
    const own = await as.patch(limited.name, { scope: { stores: [2, 1], groups: [1] }, role: 'admin' });

    // Assess
    expect(made.status).toBe(201);
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ scope: { stores: [2, 1], groups: [1] }, role: 'admin' });
    expect(own.status).toBe(200);
    expect(own.body.scope).toEqual({ stores: [2, 1], groups: [1] });
  });

  it('leaves a full-scope admin user free to grant every store, the admin role, and to change a user who sees everything', async () => {
    // Prepare
    const { body: full } = await create({ email: address('admin-total'), scope: 'all', role: 'admin' });
    const { body: member } = await create({ email: address('membro-total'), scope: SCOPE });
    const { body: everyStore } = await create({ email: address('ve-tudo'), scope: 'all' });
    const as = {
      create: (body: unknown) => create(body, tenant.key, full.token),
      patch: (name: string, body: unknown) => patch(name, body, tenant.key, full.token),
    };

    // Act
    const made = await as.create({ email: address('nova-admin-total'), scope: 'all', role: 'admin' });
    const widened = await as.patch(member.name, { scope: 'all', role: 'admin' });
    const narrowed = await as.patch(everyStore.name, { scope: SCOPE, disabled: true });

    // Assess
    expect([made.status, made.body.scope, made.body.role]).toEqual([201, 'all', 'admin']);
    expect(widened.body).toMatchObject({ scope: 'all', role: 'admin' });
    expect(narrowed.body).toMatchObject({ scope: SCOPE, disabled_at: expect.any(String) });
  });
});
