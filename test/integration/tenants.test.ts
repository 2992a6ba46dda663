import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { employeeService } from '../../shared/adapters/wiring/employees.js';
import { storeService } from '../../shared/adapters/wiring/stores.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { findLogo } from '../../shared/adapters/brand-repository.js';
import { getTenant } from '../../shared/adapters/tenant-repository.js';
import { readConfigVersion } from '../../shared/adapters/tenant-repository.js';
import { readSettings } from '../../shared/adapters/settings-repository.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { logoStore } from '../../shared/adapters/logo-store.js';
import { inProcess } from '../support/api.js';
import { command } from '../support/commands.js';

/** The admin command as an operator runs it, against the test stack's table (its endpoint is in the environment). */
const admin = (args: string[]) => command('infra/admin.ts', args);
/**
 * The time of a test that runs the admin command `runs` times: each run is a new Node process loading TypeScript, about
 * 6 s alone and up to 28 s beside CI's other tiers and a CPU-bound process (.ci/run beside `yes`: four runs took 112 s).
 */
const COMMAND_RUNS = (runs: number) => runs * 60_000;

const api = inProcess();

describe('tenants', () => {
  it('are created with store 1 and employee 1 named as the operator gave them, and distinct ids', async () => {
    const [a, b] = await Promise.all([
      tenantService.createTenant('alpha', { store: 'Loja Alfa', employee: 'Ana Souza' }),
      tenantService.createTenant('beta', { store: 'Loja Beta' }),
    ]);
    expect(a.id).not.toBe(b.id);
    expect(await storeService.getStore(a.id, 1)).toMatchObject({ id: 1, status: 'active', trade_name: 'Loja Alfa' });
    expect(await employeeService.getEmployee(a.id, 1)).toMatchObject({ id: 1, name: 'Ana Souza' });
    // Without an employee's name, the first employee is the store's team.
    expect(await employeeService.getEmployee(b.id, 1)).toMatchObject({ id: 1, name: 'Loja Beta' });
    expect((await readSettings(a.id)).brand).toEqual({ name: 'alpha' });
    const { key } = await tenantService.issueApiKey(a.id, { scope: 'public' });
    const created = await api({ method: 'POST', path: '/public/store', key, body: { trade_name: 'Second' } });
    expect(created.body.id).toBe(2);
  });

  it('refuses a key from its expiry on (controlled clock), and keeps a key without one', async () => {
    const tenant = await tenantService.createTenant('expiring', { store: 'Loja Prazo' });
    const expiresAt = '2030-01-01T00:00:00.000Z';
    const { key } = await tenantService.issueApiKey(tenant.id, { scope: 'public', expiresAt });
    const { key: lasting } = await tenantService.issueApiKey(tenant.id, { scope: 'public' });
    const before = new Date(Date.parse(expiresAt) - 1000);
    const at = new Date(expiresAt);
    expect(await tenantService.authorizeKey(key, 'public', { now: before })).toMatchObject({ authenticated: true, tenantId: tenant.id });
    expect(await tenantService.authorizeKey(key, 'public', { now: at })).toEqual({ authenticated: false });
    expect(await tenantService.authorizeKey(lasting, 'public', { now: new Date('2099-01-01T00:00:00Z') })).toMatchObject({
      authenticated: true,
    });
  });

  it(
    "create-tenant (the admin command) requires the first store's name, and names store 1 with it",
    async () => {
      const id = 600_000 + Math.floor(Math.random() * 100_000);
      const refused = await admin(['create-tenant', '--name', 'sem-loja', '--id', String(id)]).catch((error: { stderr: string }) => error);
      expect((refused as { stderr: string }).stderr).toMatch(
        /admin: --store is required: the name of the first store, as customers know it/,
      );
      expect(await getTenant(id)).toBeUndefined();

      const { stdout } = await admin(['create-tenant', '--name', 'com-loja', '--id', String(id), '--store', 'Loja Centro']);
      expect(stdout).toContain(`tenant ${id} "com-loja" created, with store 1 "Loja Centro" and employee 1`);
      expect(await storeService.getStore(id, 1)).toMatchObject({ trade_name: 'Loja Centro' });
      expect(await employeeService.getEmployee(id, 1)).toMatchObject({ name: 'Loja Centro' });
    },
    COMMAND_RUNS(2),
  );

  it(
    "reads npm start's port variables: a second stack's DYNAMODB_PORT and TABLE_NAME, and refuses a port that is none",
    async () => {
      // As an operator's shell beside a stack started with DYNAMODB_PORT and TABLE_NAME: no endpoint variable of the SDK's.
      const { AWS_ENDPOINT_URL_DYNAMODB: endpoint, ...rest } = process.env;
      const shell = { ...rest, DYNAMODB_PORT: new URL(endpoint!).port };
      const id = 900_000 + Math.floor(Math.random() * 90_000);
      const run = (env: NodeJS.ProcessEnv) =>
        command('infra/admin.ts', ['create-tenant', '--name', 'porta', '--id', String(id), '--store', 'Loja Porta'], env);
      const created = await run(shell);
      expect(created.stderr).toContain(`admin: using local table ${process.env.TABLE_NAME} at http://127.0.0.1:${shell.DYNAMODB_PORT}`);
      expect(await storeService.getStore(id, 1)).toMatchObject({ trade_name: 'Loja Porta' });
      const refused = (await run({ ...shell, DYNAMODB_PORT: '80o0' }).catch((error: unknown) => error)) as { stderr: string };
      expect(refused.stderr).toContain('admin: DYNAMODB_PORT must be a port number, got "80o0".');
    },
    COMMAND_RUNS(2),
  );

  it('apply refuses to create a tenant whose file gives no first store', async () => {
    const id = 700_000 + Math.floor(Math.random() * 100_000);
    const [config] = parseTenantFile(JSON.stringify({ tenants: [{ id, name: 'sem-loja' }] }), {}).tenants;
    await expect(tenantService.applyTenantConfig(config!)).rejects.toThrow(/Tenant \d+ does not exist yet: give its firstStore/);
    expect(await getTenant(id)).toBeUndefined();
  });

  it(
    "apply uploads the brand's logo to the logo bucket under its content's hash; an SVG is refused and nothing changes",
    async () => {
      const id = 800_000 + Math.floor(Math.random() * 100_000);
      const dir = mkdtempSync(join(tmpdir(), 'tenant-file-'));
      const logo = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));
      writeFileSync(join(dir, 'logo.png'), logo);
      writeFileSync(join(dir, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
      const file = (logoPath: string) => {
        const path = join(dir, `tenants-${logoPath}.json`);
        const tenant = { id, name: 'logo', firstStore: { store: 'Loja Logo' }, brand: { name: 'Logo & Cia', logo: logoPath } };
        writeFileSync(path, JSON.stringify({ tenants: [tenant] }));
        return path;
      };

      const { stdout } = await admin(['apply', file('logo.png'), '--yes']);
      const hash = createHash('sha256').update(logo).digest('hex');
      expect(stdout).toContain(`  brand: "Logo & Cia", logo ${hash}.png`);
      expect((await readSettings(id)).brand).toEqual({ name: 'Logo & Cia', logo: { file: `${hash}.png`, contentType: 'image/png' } });
      const stored = await logoStore.get(`${hash}.png`);
      expect(stored?.contentType).toBe('image/png');
      expect(Buffer.from(stored!.bytes).equals(logo)).toBe(true);
      // Recorded as the tenant's own, so that its admin may name it again in PUT /public/admin/config after another.
      expect(await findLogo(id, `${hash}.png`)).toEqual({ file: `${hash}.png`, contentType: 'image/png' });

      const refused = await admin(['apply', file('logo.svg'), '--yes']).catch((error: { stderr: string }) => error);
      expect((refused as { stderr: string }).stderr).toContain(
        'admin: The logo is an SVG, which is refused (it can carry scripts); export it as PNG or WebP.',
      );
      expect((await readSettings(id)).brand?.logo?.file).toBe(`${hash}.png`);
      rmSync(dir, { recursive: true, force: true });
    },
    COMMAND_RUNS(2),
  );

  it(
    'apply prints its plan field by field and changes nothing without --yes; with --yes it applies it',
    async () => {
      const id = 900_000 + Math.floor(Math.random() * 100_000);
      const dir = mkdtempSync(join(tmpdir(), 'tenant-plan-'));
      const path = join(dir, 'tenants.json');
      const adminKey = `admin-plan-key-${id}-0000`;
      const file = (colour: string, token: string, themes?: unknown[]) => {
        const tenant = {
          id,
          name: 'plan',
          ...(themes ? { themes } : {}),
          firstStore: { store: 'Loja Plano' },
          brand: { name: 'Plano', colour },
          users: [{ name: 'ops', token, scope: 'all' }],
          keys: [{ scope: 'admin', value: adminKey }],
        };
        writeFileSync(path, JSON.stringify({ tenants: [tenant] }));
        return path;
      };

      // A new tenant: every field is planned, nothing is written, and no secret is printed.
      const plan = await admin(['apply', file('#145a32', `ops-plan-token-${id}-1`)]);
      expect(plan.stdout).toContain(`tenant ${id} "plan": to be created`);
      expect(plan.stdout).toContain('  brand: (none) -> {"name":"Plano","colour":"#145a32"}');
      expect(plan.stdout).toContain('  user "ops": new');
      expect(plan.stdout).toContain('  admin key: new');
      expect(plan.stdout).toContain('Nothing was changed. Run again with --yes to apply this plan.');
      expect(plan.stdout).not.toContain(adminKey);
      expect(plan.stdout).not.toContain(`ops-plan-token-${id}-1`);
      expect(await getTenant(id)).toBeUndefined();

      await admin(['apply', path, '--yes']);
      expect((await readSettings(id)).brand).toEqual({ name: 'Plano', colour: '#145a32' });

      // Its admin changes the colour on the admin pages (PUT /public/admin/config); the next plan names that change.
      const read = await api({ path: '/public/admin/config', key: adminKey });
      const put = await api({
        method: 'PUT',
        path: '/public/admin/config',
        key: adminKey,
        body: { ...read.body, brand: { ...read.body.brand, colour: '#1a5276' } },
        headers: { 'if-match': String(read.headers.etag) },
      });
      expect(put.status).toBe(200);
      // The file lists themes of its own: they replace the defaults.
      const parking = {
        slug: 'parking',
        name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
        keywords: { en: ['parking'] },
      };
      const next = await admin(['apply', file('#145a32', `ops-plan-token-${id}-2`, [parking])]);
      expect(next.stdout).toContain('  brand.colour: "#1a5276" -> "#145a32" (changed on the admin pages/API since the last apply)');
      expect(next.stdout).toContain(
        `  themes[slug=parking]: (none) -> ${JSON.stringify({ ...parking, keywords: { 'pt-BR': [], es: [], en: ['parking'] } })}`,
      );
      expect(next.stdout).toMatch(/ {2}themes\[slug=wait\]: \{.*\} -> \(none\)/);
      expect(next.stdout).toContain('  user "ops": token changed');
      expect(next.stdout).not.toContain(`ops-plan-token-${id}-2`);
      expect((await readSettings(id)).brand?.colour).toBe('#1a5276');

      const applied = await admin(['apply', path, '--yes']);
      expect(applied.stdout).toContain('Applying:');
      expect((await readSettings(id)).brand?.colour).toBe('#145a32');
      expect((await readSettings(id)).themes?.map((theme) => theme.slug)).toEqual(['parking']);
      rmSync(dir, { recursive: true, force: true });
    },
    COMMAND_RUNS(4),
  );

  it('refuses a key for a tenant that does not exist', async () => {
    await expect(tenantService.issueApiKey(987654, { scope: 'public' })).rejects.toThrow(/does not exist/);
  });

  it('apply creates a tenant from its file, then updates it in place', async () => {
    const id = 500_000 + Math.floor(Math.random() * 100_000);
    const file = (users: unknown[], name = 'filed') =>
      parseTenantFile(
        JSON.stringify({
          tenants: [
            {
              id,
              name,
              classes: [{ id: 1, label: 'Atendimento', type: 'csat' }],
              journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['whatsapp'] }],
              groups: [{ id: 1, name: 'Gerentes' }],
              users,
              keys: [{ scope: 'public', value: '${TEST_APPLY_KEY:-apply-test-key-' + id + '}' }],
              firstStore: { store: 'Loja Filed' },
              brand: { name: 'Filed & Co', colour: '#145a32', senderName: 'Pesquisa Filed' },
            },
          ],
        }),
      ).tenants[0]!;

    const first = await tenantService.applyTenantConfig(file([{ name: 'ops', token: `ops-token-${id}-000000`, scope: 'all' }]));
    expect(first[0]).toMatch(/created/);
    expect(await tenantService.authorizeKey(`apply-test-key-${id}`, 'public')).toEqual({
      authenticated: true,
      tenantId: id,
      scope: 'public',
      keyId: expect.stringMatching(/^[0-9a-f]{12}$/),
      // The configuration version it was checked at: the apply's.
      version: await readConfigVersion(id),
    });
    const settings = await readSettings(id);
    expect(settings.journeys.map((journey) => journey.slug)).toEqual(['loja']);
    expect(settings.classes.map((item) => item.id)).toEqual([1]);
    expect(settings.groups).toEqual([{ id: 1, name: 'Gerentes' }]);
    expect(settings.delivery).toEqual({});
    expect(settings.brand).toEqual({ name: 'Filed & Co', colour: '#145a32', senderName: 'Pesquisa Filed' });
    expect(await storeService.getStore(id, 1)).toMatchObject({ trade_name: 'Loja Filed' });

    const second = await tenantService.applyTenantConfig(
      file([{ name: 'ops', token: `ops-token-${id}-000000`, scope: { stores: [1], groups: [] } }], 'renamed'),
    );
    expect(second[0]).toMatch(/updated/);
    expect(second).toContain('  public key: already present');
    expect((await getTenant(id))?.name).toBe('renamed');
    expect((await tenantService.resolveUser(id, `ops-token-${id}-000000`)).scope).toEqual({ stores: [1], groups: [] });
    // The operator's command writes the audit log too: the rename, newest first, after the creation.
    const audit = await tenantService.auditEntries(id, { limit: 10 });
    expect(audit.data.map((entry) => [entry.actor, entry.action])).toEqual([
      [{ operator: true }, 'config.apply'],
      [{ operator: true }, 'config.apply'],
    ]);
    expect(audit.data[0]!.changes).toEqual([{ path: 'name', old: 'filed', new: 'renamed' }]);
  });

  it('decide what to write about a user from consistent reads, never from an index that may lag behind a write', async () => {
    const { id } = await tenantService.createTenant(`users-${Date.now()}`, { store: 'Loja Usuários' });
    await tenantService.createUser(id, { name: 'ops', scope: 'all', token: `ops-first-token-${id}` });
    // Were the name read through the index (eventually consistent on AWS), this would fail: no Query is answered.
    const stack = db().client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (String(context.commandName).startsWith('Query')) throw new Error('no index reads here');
        return next(args);
      },
      { step: 'initialize', name: 'noQueries' },
    );
    try {
      await tenantService.createUser(id, { name: 'ops', scope: { stores: [1], groups: [] }, token: `ops-second-token-${id}` });
    } finally {
      stack.remove('noQueries');
    }
    await expect(tenantService.resolveUser(id, `ops-first-token-${id}`)).rejects.toMatchObject({ kind: 'unauthenticated' });
    expect((await tenantService.resolveUser(id, `ops-second-token-${id}`)).scope).toEqual({ stores: [1], groups: [] });
  });
});
