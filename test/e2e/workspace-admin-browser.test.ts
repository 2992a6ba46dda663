import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { overHttp } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf, signIn, watched as watchedBy } from '../support/workspace.js';
import { screenshot } from '../support/screenshots.js';
import { axe, hasChromium, launchChromium, BROWSER_TEST_TIMEOUT } from '../support/browser.js';

/**
 * The tenant admin's pages in Debian's chromium over the local stack and its Cognito emulator: an admin, on a phone
 * and on a desktop, adds a journey with its questions in three languages, meets a stale form's refusal without losing
 * what was typed, adds an event endpoint and issues an API key; a store manager is refused. axe-core checks every
 * page; screenshots when asked (test/support/screenshots.ts).
 */
const api = overHttp('public');
const publicUrl = inject('publicUrl');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** Each test opens many pages in chromium beside the local stack: on a loaded machine that takes a while. */
const SLOW = 120_000;
const ADMIN_PASSWORD = 'Admin-browser-pass1!';
const MANAGER_PASSWORD = 'Loja1-browser-pass1!';
let browser: Browser;
let tenant: TestTenant;
let admin: string;
let manager: string;

const watched = (viewport: { width: number; height: number }, bypassCSP = false) =>
  watchedBy(browser, publicUrl, { viewport, bypassCSP }, [400, 403, 409]);
const shot = screenshot;

async function configured() {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  expect(read.status, read.text).toBe(200);
  return read.body as { journeys: { slug: string; questions?: Record<string, string> }[]; delivery: { webhooks?: unknown[] } };
}

async function openAsAdmin(page: Page, path: string) {
  await page.goto(`${publicUrl}${path}`);
  await signIn(page, admin, ADMIN_PASSWORD);
  await page.waitForURL(`**${path}`);
}

/** Fills the journey form as a person would. */
async function fillJourney(page: Page, slug: string) {
  const form = page.locator('#journey-form');
  await form.getByLabel('Identificador (slug)').fill(slug);
  await form.getByLabel('Nome').fill(`Retirada ${slug}`);
  await form.getByLabel('Indicador da nota principal').selectOption('csat');
  await form.getByLabel('Entrega — Esforço (CES, 1 a 7)').check();
  await form.getByLabel('1º canal').selectOption('email');
  await form.getByLabel('Português (Brasil)').fill('Como foi retirar seu pedido na {loja}?');
  await form.getByLabel('Espanhol').fill('¿Cómo fue retirar su pedido en {loja}?');
  await form.getByLabel('Inglês').fill('How was picking up your order at {loja}?');
}

describe.skipIf(!hasChromium)('the tenant admin pages in a browser', { timeout: BROWSER_TEST_TIMEOUT }, () => {
  beforeAll(async () => {
    tenant = await newTenant();
    admin = `admin-browser-${tenant.tenantId}@test.local`;
    manager = `loja-browser-${tenant.tenantId}@test.local`;
    // The admin is a tenant user with the role; the invitation re-issues its token and keeps the role.
    await tenantService.createUser(tenant.tenantId, { name: admin, scope: 'all', role: 'admin' });
    await inviteManagerOf(tenant.tenantId, admin, 'all', { password: ADMIN_PASSWORD });
    await inviteManagerOf(tenant.tenantId, manager, { stores: [1], groups: [1] }, { password: MANAGER_PASSWORD });
    browser = await launchChromium();
  }, 60_000);
  afterAll(() => browser?.close());

  it(
    'lets an admin on a phone add a journey with its question in three languages, each wrong field named first',
    async () => {
      const { context, problems } = await watched(PHONE);
      const page = await context.newPage();
      await openAsAdmin(page, '/app/answers');
      await page.getByRole('link', { name: 'Admin' }).click();
      await page.waitForURL('**/app/admin/general');
      await page.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Jornadas' }).click();
      await page.waitForURL('**/app/admin/journeys');
      expect(
        await page.getByRole('navigation', { name: 'Administração' }).getByRole('link', { name: 'Jornadas' }).getAttribute('aria-current'),
      ).toBe('page');
      expect(await page.locator('#journeys-title + ul > li h3').allTextContents()).toEqual([
        'Loja loja',
        'E-commerce ecommerce',
        'Atendimento atendimento',
        'Lembrete lembrete',
      ]);
      await shot(page, 'journeys-390');

      // A wrong slug and no channel: each message is next to its input, and nothing is saved.
      await page.getByRole('link', { name: 'Nova jornada' }).click();
      const form = page.locator('#journey-form');
      await form.getByLabel('Identificador (slug)').fill('Retirada Loja');
      await form.getByLabel('Espanhol').fill('¿Cómo fue?');
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.waitForSelector('#form-problems');
      expect(await page.locator('#j-slug-error').textContent()).toBe('use só letras minúsculas, números e hífens');
      expect(await page.locator('#j-channels-error').textContent()).toBe('escolha pelo menos um');
      expect(await form.getByLabel('Identificador (slug)').getAttribute('aria-invalid')).toBe('true');
      expect(await form.getByLabel('Espanhol').inputValue()).toBe('¿Cómo fue?');
      await shot(page, 'journey-errors-390');
      // The summary's link takes the focus to the field.
      await page.locator('#form-problems').getByRole('link', { name: 'Identificador (slug)' }).click();
      expect(await form.getByLabel('Identificador (slug)').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);

      await fillJourney(page, 'retirada');
      await form.getByLabel('2º canal').selectOption('sms');
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.waitForURL('**/app/admin/journeys?saved=retirada');
      expect(await page.getByRole('status').textContent()).toBe('Jornada retirada salva. Vale a partir da próxima transação.');
      const item = page.locator('#journeys-title + ul > li').filter({ hasText: 'retirada' });
      expect(await item.locator('[lang=es]').textContent()).toBe('¿Cómo fue retirar su pedido en {loja}?');
      await shot(page, 'journey-saved-390');
      const journey = (await configured()).journeys.find((j) => j.slug === 'retirada');
      expect(journey).toMatchObject({
        indicator: 'csat',
        classes: [3],
        channels: ['email', 'sms'],
        questions: {
          'pt-BR': 'Como foi retirar seu pedido na {loja}?',
          es: '¿Cómo fue retirar su pedido en {loja}?',
          en: 'How was picking up your order at {loja}?',
        },
      });
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'refuses a form read before another change on a desktop, saying so, with everything typed still there',
    async () => {
      const { context, problems } = await watched(DESKTOP);
      const first = await context.newPage();
      await openAsAdmin(first, '/app/admin/journeys');
      await fillJourney(first, 'balcao');
      // Meanwhile, in another tab, the same admin edits a journey and saves.
      const second = await context.newPage();
      await second.goto(`${publicUrl}/app/admin/journeys`);
      await second.getByRole('link', { name: 'Editar Lembrete' }).click();
      await second.locator('#journey-form').getByLabel('Nome').fill('Lembrete por e-mail');
      await second.locator('#journey-form').getByRole('button', { name: 'Salvar' }).click();
      await second.waitForURL('**saved=lembrete');

      await first.locator('#journey-form').getByRole('button', { name: 'Salvar' }).click();
      await first.waitForSelector('#form-problems');
      expect(await first.locator('#form-problems').textContent()).toContain('A configuração mudou desde que você abriu este formulário');
      expect(await first.locator('#journey-form').getByLabel('Identificador (slug)').inputValue()).toBe('balcao');
      expect(await first.locator('#journey-form').getByLabel('Inglês').inputValue()).toBe('How was picking up your order at {loja}?');
      expect(await first.locator('#journey-form').getByLabel('Entrega — Esforço (CES, 1 a 7)').isChecked()).toBe(true);
      // The list shows the configuration as it is now.
      expect(await first.locator('#journeys-title + ul').textContent()).toContain('Lembrete por e-mail');
      expect((await configured()).journeys.map((j) => j.slug)).not.toContain('balcao');
      await shot(first, 'journey-stale-1280');

      // Sent again, after reading what changed, it is saved, and the other change is kept.
      await first.locator('#journey-form').getByRole('button', { name: 'Salvar' }).click();
      await first.waitForURL('**saved=balcao');
      const slugs = (await configured()).journeys.map((j) => j.slug);
      expect(slugs).toContain('balcao');
      expect(await first.locator('#journeys-title + ul').textContent()).toContain('Lembrete por e-mail');
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'adds an event endpoint on a phone and on a desktop, and removes one',
    async () => {
      for (const [viewport, name] of [
        [PHONE, 'phone'],
        [DESKTOP, 'desktop'],
      ] as const) {
        const { context, problems } = await watched(viewport);
        const page = await context.newPage();
        await openAsAdmin(page, '/app/admin/webhooks');
        const url = `https://hooks.example.com/${name}-${tenant.tenantId}`;
        const form = page.locator('#endpoint-form');
        await form.getByLabel('Endereço (URL)').fill(url);
        await form.getByLabel('Resposta recebida (survey.answered)', { exact: true }).check();
        await form.getByRole('button', { name: 'Adicionar' }).click();
        await page.waitForURL('**/app/admin/webhooks?done=added');
        const listed = page.locator('#endpoints > li').filter({ hasText: url });
        expect(await listed.textContent()).toContain('Resposta recebida (survey.answered) · sem o comentário do cliente');
        await shot(page, `webhooks-${viewport.width}`);
        expect((await configured()).delivery.webhooks).toContainEqual({ url, events: ['survey.answered'] });
        expect(problems).toEqual([]);
        await context.close();
      }
      const { context } = await watched(PHONE);
      const page = await context.newPage();
      await openAsAdmin(page, '/app/admin/webhooks');
      await page.getByRole('button', { name: `Remover https://hooks.example.com/phone-${tenant.tenantId}` }).click();
      await page.waitForURL('**done=removed');
      expect(await page.locator('#endpoints').textContent()).not.toContain('phone-');
      await context.close();
    },
    SLOW,
  );

  it(
    'issues an API key on a phone: its value shows once, a refresh neither posts again nor shows it; revoking asks for a confirmation',
    async () => {
      const { context, problems } = await watched(PHONE);
      const page = await context.newPage();
      await openAsAdmin(page, '/app/admin/keys');
      const form = page.locator('#key-form');
      await form.getByLabel('Nome').fill('ERP da loja');
      await form.getByLabel('Escopo').selectOption('public');
      await form.getByRole('button', { name: 'Criar chave' }).click();
      await page.waitForURL('**/app/admin/keys?done=issued');
      const key = (await page.locator('#new-key').textContent())!;
      expect(key).toMatch(/^ssk_/);
      expect(page.url()).not.toContain(key);
      await shot(page, 'key-issued-390');
      expect((await api({ path: '/public/store/1', key })).status).toBe(200);
      await page.reload();
      expect(await page.locator('#new-key').count()).toBe(0);
      expect(await page.content()).not.toContain(key);
      expect(await page.locator('#keys h3', { hasText: 'ERP da loja' }).count()).toBe(1);

      const card = page.locator('#keys li', { hasText: 'ERP da loja' });
      await card.locator('summary', { hasText: 'Revogar' }).click();
      await card.getByRole('button', { name: 'Revogar ERP da loja' }).click();
      await page.waitForSelector('#form-problems');
      expect(await page.locator('#form-problems').textContent()).toContain('Marque a confirmação para continuar');
      expect((await api({ path: '/public/store/1', key })).status).toBe(200);
      const again = page.locator('#keys li', { hasText: 'ERP da loja' });
      await again.locator('summary', { hasText: 'Revogar' }).click();
      await shot(page, 'key-revoke-confirm-390');
      await again.getByLabel('Entendo, revogar esta chave').check();
      await again.getByRole('button', { name: 'Revogar ERP da loja' }).click();
      await page.waitForURL('**/app/admin/keys?done=revoked');
      expect((await api({ path: '/public/store/1', key })).status).toBe(401);
      await shot(page, 'keys-390');
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    "changes a user's scope and role on a desktop, disables them after a confirmation, and offers the admin no way to lock themself out",
    async () => {
      const someone = `equipe-browser-${tenant.tenantId}@test.local`;
      await tenantService.createUser(tenant.tenantId, { name: someone, scope: { stores: [1], groups: [] } });
      const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Norte' } });
      expect(store.status, store.text).toBe(201);
      const { context, problems } = await watched(DESKTOP);
      const page = await context.newPage();
      await openAsAdmin(page, '/app/admin/users');
      const own = page.locator('#users li', { hasText: `${admin} (você)` });
      expect(await own.locator('summary', { hasText: 'Desativar' }).count()).toBe(0);
      expect(await own.textContent()).toContain('Você não pode se desativar, deixar de ser administrador nem mudar o que vê');

      const card = page.locator('#users li', { hasText: someone });
      await card.locator('summary', { hasText: 'Alterar o que vê e o papel' }).click();
      // The stores by name, store 1 ticked as the user sees it.
      expect(await card.getByRole('checkbox', { checked: true }).count()).toBe(1);
      await card.getByLabel('Loja Norte').check();
      await card.getByLabel('Papel').selectOption('admin');
      await shot(page, 'user-edit-1280');
      await card.getByRole('button', { name: `Salvar ${someone}` }).click();
      await page.waitForURL('**/app/admin/users?done=changed');
      const listed = async () =>
        (await api({ path: '/public/admin/users', key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === someone);
      // The boxes are in the order of the stores' names.
      expect(await listed()).toMatchObject({ scope: { stores: [2, 1], groups: [] }, role: 'admin' });

      const changed = page.locator('#users li', { hasText: someone });
      await changed.locator('summary', { hasText: 'Desativar' }).click();
      expect(await changed.textContent()).toContain('não consegue entrar e o token de API dela é recusado');
      await changed.getByLabel('Entendo, desativar este usuário').check();
      await shot(page, 'user-disable-confirm-1280');
      await changed.getByRole('button', { name: `Desativar ${someone}` }).click();
      await page.waitForURL('**/app/admin/users?done=changed');
      expect((await listed()).disabled_at).not.toBeNull();
      await shot(page, 'users-changed-1280');
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'changes the brand on a phone and a desktop: a pale colour refused with its contrast, then a logo uploaded and previewed, axe clean',
    async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        // CSP bypassed only so that axe-core can be injected.
        const { context, problems } = await watched(viewport, true);
        const page = await context.newPage();
        await openAsAdmin(page, '/app/admin/keys');
        await page.locator('.subnav').getByRole('link', { name: 'Marca' }).click();
        await page.waitForURL('**/app/admin/brand');
        expect(await axe(page), `brand at ${viewport.width}`).toEqual([]);
        const form = page.locator('#brand-form');
        await form.getByLabel('Nome de exibição').fill(`Lojas ${viewport.width}`);
        await form.getByLabel('Cor principal').fill('#ffd700');
        await form.getByRole('button', { name: 'Salvar' }).click();
        await page.waitForSelector('#form-problems');
        expect(await page.locator('#b-colour-error').textContent()).toMatch(
          /^tem contraste de 1\.\d+:1 com o fundo #[0-9a-f]{6}; a norma WCAG AA pede/,
        );
        expect(await form.getByLabel('Nome de exibição').inputValue()).toBe(`Lojas ${viewport.width}`);
        expect(await axe(page), `brand refused at ${viewport.width}`).toEqual([]);
        await shot(page, `brand-refused-${viewport.width}`);

        await form.getByLabel('Cor principal').fill('#7c2d12');
        await form.getByLabel('Nome do remetente dos e-mails').fill('Atendimento');
        await form.getByLabel('Novo logo').setInputFiles(new URL('../../infra/local/demo-logo.png', import.meta.url).pathname);
        await form.getByRole('button', { name: 'Salvar' }).click();
        await page.waitForURL('**/app/admin/brand?done=saved');
        const logo = page.locator('#current-logo');
        expect(await logo.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBeGreaterThan(0);
        expect(await page.locator('header .brand').textContent()).toContain(`Lojas ${viewport.width}`);
        expect(await axe(page), `brand saved at ${viewport.width}`).toEqual([]);
        await shot(page, `brand-saved-${viewport.width}`);
        expect(problems).toEqual([]);
        await context.close();
      }
    },
    SLOW,
  );

  it(
    "refuses a store manager the admin pages with a 403 page, and shows no Admin in the manager's navigation",
    async () => {
      const { context, problems } = await watched(PHONE);
      const page = await context.newPage();
      await page.goto(`${publicUrl}/app/answers`);
      await signIn(page, manager, MANAGER_PASSWORD);
      await page.waitForURL('**/app/answers');
      expect(await page.getByRole('link', { name: 'Admin' }).count()).toBe(0);
      const refused = await page.goto(`${publicUrl}/app/admin/journeys`);
      expect(refused!.status()).toBe(403);
      expect(await page.locator('main').textContent()).toContain('Só os administradores da empresa abrem as páginas de administração.');
      expect(await page.locator('form[action$="/app/admin/journeys"]').count()).toBe(0);
      await shot(page, 'forbidden-390');
      expect((await page.goto(`${publicUrl}/app/admin/webhooks`))!.status()).toBe(403);
      expect(problems).toEqual([]);
      await context.close();
    },
    SLOW,
  );

  it(
    'passes axe-core on every admin page, its refusals included, at 390 and 1280 px',
    async () => {
      for (const viewport of [PHONE, DESKTOP]) {
        // CSP bypassed only so that axe-core can be injected.
        const { context } = await watched(viewport, true);
        const page = await context.newPage();
        await openAsAdmin(page, '/app/admin/journeys');
        expect(await axe(page), `journeys at ${viewport.width}`).toEqual([]);
        await page.getByRole('link', { name: 'Editar Loja' }).click();
        expect(await axe(page), `edit form at ${viewport.width}`).toEqual([]);
        await page.locator('#journey-form').getByLabel('Identificador (slug)').fill('');
        await page.locator('#journey-form').getByRole('button', { name: 'Salvar' }).click();
        await page.waitForSelector('#form-problems');
        expect(await axe(page), `wrong fields at ${viewport.width}`).toEqual([]);
        await page.goto(`${publicUrl}/app/admin/webhooks`);
        expect(await axe(page), `webhooks at ${viewport.width}`).toEqual([]);
        await page.goto(`${publicUrl}/app/admin/users`);
        expect(await axe(page), `users at ${viewport.width}`).toEqual([]);
        for (const summary of await page.locator('#users summary').all()) await summary.click();
        expect(await axe(page), `users' forms open at ${viewport.width}`).toEqual([]);
        await shot(page, `users-${viewport.width}`);
        await page.goto(`${publicUrl}/app/admin/keys`);
        expect(await axe(page), `keys at ${viewport.width}`).toEqual([]);
        for (const summary of await page.locator('#keys summary').all()) await summary.click();
        expect(await axe(page), `keys' confirmations open at ${viewport.width}`).toEqual([]);
        await page.locator('#key-form').getByRole('button', { name: 'Criar chave' }).click();
        await page.waitForSelector('#form-problems');
        expect(await axe(page), `key refused at ${viewport.width}`).toEqual([]);
        await context.close();

        const other = await watched(viewport, true);
        const refused = await other.context.newPage();
        await refused.goto(`${publicUrl}/app/admin/journeys`);
        await signIn(refused, manager, MANAGER_PASSWORD);
        await refused.waitForURL('**/app/admin/journeys');
        expect(await axe(refused), `forbidden at ${viewport.width}`).toEqual([]);
        await other.context.close();
      }
    },
    SLOW,
  );

  // Last: it turns the tenant to Spanish.
  it(
    'lets an admin place stores in a region and a district by name, each refusal named, axe clean at 390 and 1280 px, in pt-BR and es',
    async () => {
      const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Serra' } });
      const first = (await api({ path: '/public/store/1', key: tenant.key })).body.trade_name as string;
      const { context, problems } = await watched(PHONE, true);
      const page = await context.newPage();
      await openAsAdmin(page, '/app/admin/general');
      await page.getByRole('link', { name: 'Regiões' }).click();
      await page.waitForURL('**/app/admin/regions');
      expect(await axe(page), 'no regions yet').toEqual([]);

      // A region without a name is refused, the field named; then Sul with Loja Serra, and Porto Alegre inside it.
      const form = page.locator('#region-form');
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.waitForSelector('#form-problems');
      expect(await page.locator('#r-name-error').textContent()).toBe('preencha este campo');
      expect(await axe(page), 'nameless region').toEqual([]);
      await form.getByLabel('Nome').fill('Sul');
      await form.getByLabel('Loja Serra').check();
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.waitForURL('**/app/admin/regions?saved=Sul');
      await form.getByLabel('Nome').fill('Porto Alegre');
      await form.getByLabel('Dentro da região').selectOption({ label: 'Sul' });
      await form.getByLabel(first).check();
      await form.getByRole('button', { name: 'Salvar' }).click();
      await page.waitForURL('**/app/admin/regions?saved=Porto%20Alegre');
      expect(await page.locator('#region-2').textContent()).toContain('Dentro de Sul');

      // Sul still holds Porto Alegre: deleting it is refused, saying why.
      await page.locator('#region-1').getByRole('button', { name: 'Excluir Sul' }).click();
      await page.waitForSelector('#form-problems');
      expect(await page.locator('#form-problems').textContent()).toContain('A região Sul tem regiões dentro dela');
      expect(await axe(page), 'delete refused').toEqual([]);
      await page.goto(`${publicUrl}/app/admin/regions?edit=2`);
      expect(await axe(page), 'edit form').toEqual([]);
      await shot(page, 'regions-pt-BR-390');
      const { regions } = (await configured()) as unknown as { regions: unknown[] };
      expect(regions).toEqual([
        { id: 1, name: 'Sul', stores: [store.body.id] },
        { id: 2, name: 'Porto Alegre', stores: [1], parent: 1 },
      ]);
      expect(problems).toEqual([]);
      await context.close();

      const wide = await watched(DESKTOP, true);
      const desktop = await wide.context.newPage();
      await openAsAdmin(desktop, '/app/admin/regions');
      expect(await axe(desktop), 'regions at 1280').toEqual([]);
      await shot(desktop, 'regions-pt-BR-1280');
      const config = await api({ path: '/public/admin/config', key: tenant.adminKey });
      const spanish = { ...config.body, locale: 'es' };
      const put = await api({
        method: 'PUT',
        path: '/public/admin/config',
        key: tenant.adminKey,
        body: spanish,
        headers: { 'if-match': config.headers.etag! },
      });
      expect(put.status, put.text).toBe(200);
      await desktop.goto(`${publicUrl}/app/admin/regions`);
      expect(await desktop.locator('h1').textContent()).toBe('Regiones');
      expect(await axe(desktop), 'regions in Spanish at 1280').toEqual([]);
      await shot(desktop, 'regions-es-1280');
      await desktop.setViewportSize(PHONE);
      expect(await axe(desktop), 'regions in Spanish at 390').toEqual([]);
      await shot(desktop, 'regions-es-390');
      await wide.context.close();
    },
    SLOW,
  );
});
