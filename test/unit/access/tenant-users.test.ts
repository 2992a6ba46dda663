import { describe, expect, it } from 'vitest';
import { hashSecret } from '../../../shared/access/credentials.js';
import { tenantUsers } from '../../../shared/access/tenant-users.js';
import { memoryAccess, memoryAudit, memoryInvitations, memorySignIn } from '../../support/memory.js';
import { refusal } from '../../support/problems.js';

/** A tenant's users: created, disabled, re-scoped, and what is refused; over in-memory ports. */

const TENANT = 7;
const NOW = new Date('2026-11-23T12:00:00.000Z');
const operator = { operator: true as const };
const stores = (...ids: number[]) => ({ stores: ids, groups: [] });

/** The tenant's settings an invitation reads: its sender, language and brand. */
const SETTINGS = {
  locale: 'es' as const,
  delivery: { email: { from: 'pesquisa@loja.example' } },
  brand: { name: 'Loja Azul', colour: '#123456' },
};

async function usersWorld(settings: Parameters<typeof memoryInvitations>[0] = SETTINGS) {
  const access = memoryAccess();
  const audit = memoryAudit();
  const signIn = memorySignIn();
  const mail = memoryInvitations(settings);
  const service = tenantUsers({ users: access, directory: signIn, audit, invitations: mail });
  // An admin of stores 1 and 2, made by the operator.
  if (settings.delivery.email)
    await service.createUser(TENANT, {
      body: { email: 'admin@loja.example', scope: stores(1, 2), role: 'admin' },
      actor: operator,
      now: NOW,
    });
  mail.sent.length = 0;
  return { access, audit, signIn, service, sent: mail.sent, admin: { user: 'admin@loja.example' } };
}

describe('tenant users', () => {
  it('creates a user with a sign-in invitation and a token shown once, stored only as its hash; the phone audited hidden', async () => {
    const { access, audit, signIn, service, sent, admin } = await usersWorld();

    const created = await service.createUser(TENANT, {
      body: { email: 'gerente@loja.example', scope: stores(1), role: 'member', phone: '+5511988887777' },
      actor: admin,
      now: NOW,
    });

    expect(created).toMatchObject({
      name: 'gerente@loja.example',
      scope: stores(1),
      role: 'member',
      invited: 'created',
      phone_last4: '7777',
    });
    expect((await access.findUserByName(TENANT, 'gerente@loja.example'))!.tokenHash).toBe(hashSecret(created.token));
    const account = signIn.accounts.get('gerente@loja.example')!;
    expect(account).toMatchObject({ tenantId: TENANT, enabled: true });
    // The temporary password meets the pool's policy, is e-mailed in the tenant's language, and is in no answer or log.
    expect(account.password).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[^a-zA-Z\d]).{12,}$/);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      from: '"Loja Azul" <pesquisa@loja.example>',
      to: ['gerente@loja.example'],
      subject: 'Su acceso al panel de Loja Azul',
    });
    expect(sent[0]!.text).toContain(account.password);
    expect(sent[0]!.text).toContain('https://example.test/app/sign-in');
    expect(sent[0]!.html).toContain('#123456');
    const entries = JSON.stringify((await audit.list(TENANT, { limit: 10 })).data);
    expect(entries).not.toContain('988887777');
    expect(entries).not.toContain(created.token);
    expect(entries).not.toContain(account.password);
    expect(JSON.stringify(created)).not.toContain(account.password);
    expect((await service.listUsers(TENANT)).map((u) => u.name)).toEqual(['admin@loja.example', 'gerente@loja.example']);
  });

  it("refuses a user that exists (conflict), and an address whose sign-in is another tenant's without saying whose", async () => {
    const { access, signIn, service, sent } = await usersWorld();
    signIn.accounts.set('alheia@outra.example', { tenantId: 99, enabled: true, password: 'x' });

    expect(
      await refusal(service.createUser(TENANT, { body: { email: 'admin@loja.example', scope: 'all', role: 'member' }, actor: operator })),
    ).toMatchObject({
      kind: 'conflict',
    });
    const elsewhere = await refusal(
      service.createUser(TENANT, { body: { email: 'alheia@outra.example', scope: 'all', role: 'member' }, actor: operator }),
    );
    expect(elsewhere).toMatchObject({ kind: 'state-conflict', errors: [{ path: 'email', message: 'cannot be invited to this tenant' }] });
    expect(elsewhere.message).not.toMatch(/99|exists|account/);
    expect(await access.findUserByName(TENANT, 'alheia@outra.example')).toBeUndefined();
    expect(sent).toEqual([]);
  });

  it('makes the user of a tenant without an e-mail sender, answering no-sender, and invites them again once it has one', async () => {
    const settings: Parameters<typeof memoryInvitations>[0] = { delivery: {} };
    const { access, signIn, service, sent } = await usersWorld(settings);

    const created = await service.createUser(TENANT, { body: { email: 'g@loja.example', scope: 'all', role: 'member' }, actor: operator });
    const refused = await refusal(service.resendInvitation(TENANT, { name: 'g@loja.example', actor: operator }));
    settings.delivery.email = { from: 'pesquisa@loja.example' };
    const resent = await service.resendInvitation(TENANT, { name: 'g@loja.example', actor: operator });

    expect(created.invited).toBe('no-sender');
    expect(await access.findUserByName(TENANT, 'g@loja.example')).toBeDefined();
    expect(refused).toMatchObject({ kind: 'state-conflict', message: expect.stringContaining('delivery.email.from') });
    expect(resent).toBe('sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(signIn.accounts.get('g@loja.example')!.password);
    // No sender's name: the address alone; the tenant's default language, pt-BR.
    expect(sent[0]).toMatchObject({ from: 'pesquisa@loja.example', subject: 'Seu acesso ao painel de ' });
  });

  it('invites again with a new temporary password a user who never signed in, and not one who did', async () => {
    const { audit, signIn, service, sent } = await usersWorld();
    await service.createUser(TENANT, { body: { email: 'g@loja.example', scope: stores(1), role: 'member' }, actor: operator });
    const first = signIn.accounts.get('g@loja.example')!.password;

    expect(await service.resendInvitation(TENANT, { name: 'g@loja.example', actor: operator })).toBe('sent');
    const second = signIn.accounts.get('g@loja.example')!.password;
    signIn.accounts.get('g@loja.example')!.signedIn = true;
    expect(await service.resendInvitation(TENANT, { name: 'g@loja.example', actor: operator })).toBe('signed-in');

    expect(second).not.toBe(first);
    expect(sent.map((m) => m.text.includes(second))).toEqual([false, true]);
    const entries = JSON.stringify((await audit.list(TENANT, { limit: 10 })).data);
    expect(entries).toContain('users[name=g@loja.example].invitation');
    expect(entries).not.toContain(second);
  });

  it('lets an admin user grant only within their own scope and role (forbidden, naming what lies outside)', async () => {
    const { access, service, admin } = await usersWorld();

    expect(
      await refusal(service.createUser(TENANT, { body: { email: 'a@loja.example', scope: stores(2, 3), role: 'member' }, actor: admin })),
    ).toMatchObject({
      kind: 'forbidden',
      message: 'You cannot grant a scope wider than your own: stores 3 are outside it.',
    });
    expect(
      await refusal(service.createUser(TENANT, { body: { email: 'b@loja.example', scope: 'all', role: 'member' }, actor: admin })),
    ).toMatchObject({
      kind: 'forbidden',
    });
    expect((await access.listUsers(TENANT)).map((u) => u.name)).toEqual(['admin@loja.example']);
  });

  it('disables a user at once in the sign-in directory and the store, keeping the first time, and enables them again', async () => {
    const { access, signIn, service, admin } = await usersWorld();
    await service.createUser(TENANT, { body: { email: 'gerente@loja.example', scope: stores(1), role: 'member' }, actor: admin, now: NOW });
    const later = new Date(NOW.getTime() + 60_000);

    expect(
      (await service.updateUser(TENANT, { given: 'gerente@loja.example', patch: { disabled: true }, actor: admin, now: NOW })).disabled_at,
    ).toBe(NOW.toISOString());
    expect(
      (await service.updateUser(TENANT, { given: 'gerente@loja.example', patch: { disabled: true }, actor: admin, now: later }))
        .disabled_at,
    ).toBe(NOW.toISOString());
    expect(signIn.accounts.get('gerente@loja.example')!.enabled).toBe(false);
    expect((await access.findUserByName(TENANT, 'gerente@loja.example'))!.disabled_at).toBe(NOW.toISOString());

    await service.updateUser(TENANT, { given: 'GERENTE@loja.example', patch: { disabled: false }, actor: admin, now: later });
    expect(signIn.accounts.get('gerente@loja.example')!.enabled).toBe(true);
    expect((await access.findUserByName(TENANT, 'gerente@loja.example'))!.disabled_at).toBeNull();
  });

  it("re-scopes a user within the admin's scope, audited old and new, and changes nothing else", async () => {
    const { access, audit, service, admin } = await usersWorld();
    await service.createUser(TENANT, {
      body: { email: 'gerente@loja.example', scope: stores(1), role: 'member', phone: '+5511900001111' },
      actor: admin,
      now: NOW,
    });

    expect(
      (await service.updateUser(TENANT, { given: 'gerente@loja.example', patch: { scope: stores(2) }, actor: admin, now: NOW })).scope,
    ).toEqual(stores(2));

    expect(await access.findUserByName(TENANT, 'gerente@loja.example')).toMatchObject({
      scope: stores(2),
      role: 'member',
      phone: '+5511900001111',
    });
    expect((await audit.list(TENANT, { limit: 1 })).data[0]!.changes).toEqual([
      { path: 'users[name=gerente@loja.example].scope', old: stores(1), new: stores(2) },
    ]);
    expect(
      await refusal(service.updateUser(TENANT, { given: 'gerente@loja.example', patch: { scope: stores(3) }, actor: admin })),
    ).toMatchObject({
      kind: 'forbidden',
    });
    expect((await access.findUserByName(TENANT, 'gerente@loja.example'))!.scope).toEqual(stores(2));
  });

  it('refuses an admin locking themself out, changing a user who sees more, or a user that does not exist', async () => {
    const { service, admin } = await usersWorld();
    await service.createUser(TENANT, { body: { email: 'diretora@loja.example', scope: 'all', role: 'admin' }, actor: operator, now: NOW });

    expect(
      await refusal(service.updateUser(TENANT, { given: 'admin@loja.example', patch: { disabled: true }, actor: admin })),
    ).toMatchObject({
      kind: 'state-conflict',
      message: 'You cannot disable yourself: ask another admin of the tenant.',
    });
    expect(
      await refusal(service.updateUser(TENANT, { given: 'admin@loja.example', patch: { role: 'member' }, actor: admin })),
    ).toMatchObject({
      kind: 'state-conflict',
    });
    expect(
      await refusal(service.updateUser(TENANT, { given: 'diretora@loja.example', patch: { disabled: true }, actor: admin })),
    ).toMatchObject({
      kind: 'forbidden',
      message: 'You cannot change a user who sees stores or groups outside your own scope: ask an admin who sees them.',
    });
    expect(
      await refusal(service.updateUser(TENANT, { given: 'ninguem@loja.example', patch: { disabled: true }, actor: admin })),
    ).toMatchObject({
      kind: 'not-found',
    });
  });
});
