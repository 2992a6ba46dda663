import { beforeAll, describe, expect, inject, it } from 'vitest';
import { cognitoIdentityProvider } from '../../shared/adapters/cognito.js';
import { ENV } from '../../shared/config.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { overHttp } from '../support/api.js';
import { until } from '../support/mailbox.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';
import { inviteManagerOf } from '../support/workspace.js';

/**
 * The case pages over HTTP through the local stack, as a store-1 manager signed in with the Cognito emulator: what a
 * wrong form answers (and that it saves nothing and keeps what was typed), a form from another site, a case of another
 * store, two managers writing at once, and the contact's reveal in the access log.
 */
const api = overHttp('public');
const chatbot = overHttp('chatbot');
const publicUrl = inject('publicUrl');
const PASSWORD = 'Casos-pages-pass-1!';
let tenant: TestTenant;
let manager: string;
let cookie: string;
let ownCase: number;
let otherCase: number;

/** A detractor's answer on journey loja at `store`, with a phone and an e-mail, and the case it opens, waited for. */
async function detractor(store: number, comment: string): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: store, phone: '11987654321' });
  const answer = await chatbot({
    method: 'POST',
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score: 2, comment, classes: [] },
  });
  expect(answer.status, answer.text).toBe(201);
  await until(async () => ((await readCase(id)).status === 200 ? true : undefined), `the case of transaction ${id}`);
  return id;
}

const readCase = (id: number) =>
  api({ path: `/public/cases/${id}`, key: tenant.key, headers: { 'x-service-user-token': tenant.userToken } });

/** A form of a case's page as its page gives it: with the version the page shows (read here, unless given). */
const caseForm = async (id: number, fields: Record<string, string>) => ({
  version: String((await readCase(id)).body.version ?? 1),
  ...fields,
});

const page = async (path: string, init: { form?: Record<string, string>; origin?: string; language?: string } = {}) => {
  const response = await fetch(`${publicUrl}${path}`, {
    method: init.form ? 'POST' : 'GET',
    redirect: 'manual',
    headers: {
      cookie,
      ...(init.language ? { 'accept-language': init.language } : {}),
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded', origin: init.origin ?? publicUrl } : {}),
    },
    ...(init.form ? { body: new URLSearchParams(init.form).toString() } : {}),
  });
  return { status: response.status, location: response.headers.get('location'), html: await response.text() };
};

/** The text of the page's alert (the problems it names), without tags. */
const alertOf = (html: string) => /<div class="error" role="alert">(.*?)<\/div>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, ' ') ?? '';

beforeAll(async () => {
  tenant = await newTenant();
  const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Centro' } });
  expect(store.status, store.text).toBe(201);
  manager = `casos-loja1-${tenant.tenantId}@test.local`;
  await inviteManagerOf(tenant.tenantId, manager, { stores: [1], groups: [1] }, { password: PASSWORD });
  const signedIn = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(manager, PASSWORD);
  if (signedIn.kind !== 'signed-in') throw new Error(`not signed in: ${signedIn.kind}`);
  cookie = `sid=${signedIn.tokens.idToken}`;
  [ownCase, otherCase] = await Promise.all([detractor(1, 'Fila enorme no caixa'), detractor(2, 'Loja dois suja')]);
}, 60_000);

describe('the case pages', () => {
  it("lists a store-1 manager's cases of store 1 only, and shows store 2's case on no page or form", async () => {
    const list = await page('/app/cases');
    expect(list.status).toBe(200);
    expect(list.html).toContain('Fila enorme no caixa');
    expect(list.html).toContain(`href="/app/cases/${ownCase}"`);
    expect(list.html).not.toContain('Loja dois suja');

    for (const answer of [
      await page(`/app/cases/${otherCase}`),
      await page(`/app/cases/${otherCase}`, { form: await caseForm(otherCase, { form: 'note', note: 'Liguei' }) }),
      await page(`/app/cases/${otherCase}/contact`, { form: {} }),
      await page('/app/cases/not-a-case'),
    ]) {
      expect(answer.status).toBe(404);
      expect(answer.html).toContain('Caso não encontrado');
      expect(answer.html).not.toContain('Loja dois suja');
      expect(answer.html).not.toContain('98765');
    }
    expect((await readCase(otherCase)).body.notes).toEqual([]);

    const refused = await page('/app/cases?store=2');
    expect(refused.status).toBe(400);
    expect(alertOf(refused.html)).toContain('Loja: informe o código de uma das suas lojas.');
    expect((await page('/app/cases?status=lost')).status).toBe(400);
  });

  it('saves nothing from a wrong form, says what was wrong and keeps what was typed', async () => {
    const empty = await page(`/app/cases/${ownCase}`, { form: await caseForm(ownCase, { form: 'note', note: '   ' }) });
    expect(empty.status).toBe(400);
    expect(alertOf(empty.html)).toContain('Anotação: escreva de 1 a 2.000 caracteres.');

    const long = 'x'.repeat(2001);
    const tooLong = await page(`/app/cases/${ownCase}`, { form: await caseForm(ownCase, { form: 'note', note: long }) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain(`>${long}</textarea>`);

    // Open cannot become resolved (the first contact comes first), and resolving needs a root cause of the tenant's.
    const skipped = await page(`/app/cases/${ownCase}`, {
      form: await caseForm(ownCase, { form: 'status', status: 'resolved', note: 'Resolvi por telefone' }),
    });
    expect(skipped.status).toBe(400);
    expect(alertOf(skipped.html)).toContain('Nova situação: escolha uma das opções.');
    expect(skipped.html).toContain('>Resolvi por telefone</textarea>');

    const unknown = await page(`/app/cases/${ownCase}`, {
      form: await caseForm(ownCase, { form: 'owner', owner: 'someone@else.example' }),
    });
    expect(unknown.status).toBe(400);
    expect(alertOf(unknown.html)).toContain('Responsável: escolha uma pessoa que entre no painel e veja a loja deste caso.');

    const stored = (await readCase(ownCase)).body;
    expect([stored.status, stored.notes, stored.owner]).toEqual(['open', [], manager]);
  });

  it('refuses a form posted from another site and changes nothing', async () => {
    const forged = await page(`/app/cases/${ownCase}`, {
      form: await caseForm(ownCase, { form: 'note', note: 'De outro site' }),
      origin: 'https://evil.example',
      language: 'en',
    });
    expect(forged.status).toBe(403);
    // The session names the tenant: its language (pt-BR), not the browser's.
    expect(forged.html).toContain('<html lang="pt-BR">');
    expect(forged.html).toContain('Envio recusado');
    const revealed = await page(`/app/cases/${ownCase}/contact`, { form: {}, origin: 'https://evil.example' });
    expect(revealed.status).toBe(403);
    expect(revealed.html).not.toContain('98765');
    expect((await readCase(ownCase)).body.notes).toEqual([]);
  });

  it('shows the contact, phone first, only after writing the read to the access log under the manager', async () => {
    const before = await page(`/app/cases/${ownCase}`);
    expect(before.html).not.toContain('98765');
    const shown = await page(`/app/cases/${ownCase}/contact`, { form: {} });
    expect(shown.status).toBe(200);
    const contact = /<dl id="contact".*?<\/dl>/s.exec(shown.html)![0];
    expect(contact.indexOf('+5511987654321')).toBeGreaterThan(-1);
    expect(contact.indexOf('+5511987654321')).toBeLessThan(contact.indexOf('@example.com'));
    expect(contact).toContain('href="tel:+5511987654321"');
    // Shown once: the case's page does not show it again.
    expect((await page(`/app/cases/${ownCase}`)).html).not.toContain('98765');

    const customer = (await readCase(ownCase)).body.customer.id;
    const access = await api({
      path: '/public/privacy/access',
      key: tenant.key,
      query: { customer },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(access.status, access.text).toBe(200);
    const reads = access.body.data.filter((entry: { operation: string }) => entry.operation === 'postAppCaseContact');
    expect(reads.map((entry: { user: string }) => entry.user)).toEqual([manager]);
  });

  it('saves one note of the forms sent at once from one page, refusing the others with 409 keeping their words', async () => {
    const notes = Array.from({ length: 5 }, (_, i) => `Nota simultânea ${i}`);
    const { version } = await caseForm(ownCase, {});
    const answers = await Promise.all(notes.map((note) => page(`/app/cases/${ownCase}`, { form: { version, form: 'note', note } })));
    const stored = (await readCase(ownCase)).body.notes.map((n: { text: string }) => n.text);
    answers.forEach((answer, i) => {
      if (answer.status === 303) {
        expect(answer.location).toBe(`/app/cases/${ownCase}?saved=note`);
        expect(stored).toContain(notes[i]);
      } else {
        expect(answer.status).toBe(409);
        expect(answer.html).toContain(`>${notes[i]}</textarea>`);
        expect(stored).not.toContain(notes[i]);
      }
    });
    expect(answers.filter((a) => a.status === 303)).toHaveLength(1);
    expect(stored).toHaveLength(1);
    // A form without the version it was read at saves nothing either.
    const unversioned = await page(`/app/cases/${ownCase}`, { form: { form: 'note', note: 'Sem versão' } });
    expect(unversioned.status).toBe(409);
    expect((await readCase(ownCase)).body.notes).toHaveLength(1);
  });

  it("reassigns a case to another person of its store, after which it is no longer in the manager's own cases", async () => {
    // The store's only person owned its case from the start.
    expect((await page('/app/cases?view=mine')).html).toContain(`href="/app/cases/${ownCase}"`);
    const apiUser = await page(`/app/cases/${ownCase}`, { form: await caseForm(ownCase, { form: 'owner', owner: 'limited' }) });
    expect(apiUser.status).toBe(400);
    expect(alertOf(apiUser.html)).toContain('Responsável: escolha uma pessoa');
    const colleague = `casos-loja1b-${tenant.tenantId}@test.local`;
    await tenantService.createUser(tenant.tenantId, { name: colleague, scope: { stores: [1], groups: [] } });
    const moved = await page(`/app/cases/${ownCase}`, { form: await caseForm(ownCase, { form: 'owner', owner: colleague }) });
    expect([moved.status, moved.location]).toEqual([303, `/app/cases/${ownCase}?saved=owner`]);
    expect((await readCase(ownCase)).body.owner).toBe(colleague);
    expect((await page('/app/cases?view=mine')).html).not.toContain(`href="/app/cases/${ownCase}"`);
    expect((await page('/app/cases?view=stores')).html).toContain(`href="/app/cases/${ownCase}"`);
  });
});
