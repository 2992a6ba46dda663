import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createGateway } from '../../infra/local/gateway.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { ENV } from '../../shared/config.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import type { UserRole } from '../../shared/access/ports.js';
import { inProcess } from '../support/api.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';
import { DEMO_MANAGERS } from '../../infra/local/demo.js';
import { eventDeliveryPorts } from '../../shared/adapters/event-deliveries.js';
import { tenantSettings } from '../../shared/adapters/wiring/tenants.js';
import { commentAnalyser } from '../../shared/adapters/wiring/themes.js';
import { usePrivateQueue } from '../support/queues.js';

/** The tenant's keys as listed, but their last use (which any call with a key may move). */
const keysOf = (listed: { body: { data: { last_used_at?: unknown }[] } }) => listed.body.data.map(({ last_used_at: _, ...key }) => key);

/**
 * The tenant admins' pages through the local gateway's session authorizer and handlers, against the Cognito emulator
 * and DynamoDB Local: a form changes the configuration exactly as PUT /public/admin/config does, a stale form or a
 * wrong field saves nothing and says why, and only tenant admins get in.
 */
const gateway = createGateway({ api: 'public' });
const api = inProcess('public');
const chatbot = inProcess('chatbot');
// The answers' analysis messages go to a queue of this file's own: the local stack's consumer would otherwise analyse
// the themes test's comment at the same moment as the test does, and one of the two writes would lose the race.
usePrivateQueue('analysis');
const PASSWORD = 'Admin-pages-pass-1!';
const SAME_ORIGIN = { origin: 'http://localhost', host: 'localhost' };
let tenant: TestTenant;
let admin: string;
let manager: string;

async function signedIn(email: string, scope: UserScope, role?: UserRole): Promise<string> {
  const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
  await tenantService.createUser(tenant.tenantId, { name: email, scope, role });
  await directory.invite({ email, tenantId: tenant.tenantId, temporaryPassword: 'Temp-admin-pages-1!' });
  await directory.setPassword(email, PASSWORD);
  const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(email, PASSWORD);
  if (outcome.kind !== 'signed-in') throw new Error(`not signed in: ${outcome.kind}`);
  return `sid=${outcome.tokens.idToken}`;
}

const get = (url: string, cookie: string) => gateway({ method: 'GET', url, headers: { cookie }, body: Buffer.alloc(0) });
const post = (url: string, cookie: string, form: [string, string][], headers: Record<string, string> = SAME_ORIGIN) =>
  gateway({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: Buffer.from(new URLSearchParams(form).toString()),
  });

/** The theme form's fields as the page fills them: what a browser sends back when nothing is changed. */
function themeFormOf(page: string): [string, string][] {
  const start = page.indexOf('<section class="card form" id="theme-form"');
  const form = page.slice(start, page.indexOf('</form>', start));
  const decode = (text: string) =>
    text.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ({ '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" })[entity]!);
  return [
    ...form.matchAll(/<input\b[^>]*\bname="([^"]*)"[^>]*\bvalue="([^"]*)"|<textarea\b[^>]*\bname="([^"]*)"[^>]*>([^<]*)<\/textarea>/g),
  ].map((field): [string, string] => (field[1] !== undefined ? [field[1], decode(field[2]!)] : [field[3]!, decode(field[4]!)]));
}

async function config() {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  expect(read.status, read.text).toBe(200);
  return { body: read.body, etag: read.headers.etag!, version: read.headers.etag!.replace(/"/g, '') };
}

/** A new journey's form as a person fills it in. */
const journeyForm = (etag: string, slug: string, extra: [string, string][] = []): [string, string][] => [
  ['etag', etag],
  ['slug', slug],
  ['name', `Jornada ${slug}`],
  ['indicator', 'csat'],
  ['classes', '1'],
  ['classes', '3'],
  ['channels', 'email'],
  ['channels', 'sms'],
  ['channels', ''],
  ['channels', 'email'],
  ['questions.pt-BR', 'Como foi a retirada na {loja}?'],
  ['questions.es', '¿Cómo fue el retiro en {loja}?'],
  ['questions.en', ''],
  ...extra,
];

beforeAll(async () => {
  tenant = await newTenant();
  admin = `admin-pages-${tenant.tenantId}@test.local`;
  manager = `loja-pages-${tenant.tenantId}@test.local`;
}, 60_000);

describe('the tenant admin pages', () => {
  let adminCookie: string;
  let managerCookie: string;
  beforeAll(async () => {
    adminCookie = await signedIn(admin, 'all', 'admin');
    managerCookie = await signedIn(manager, { stores: [1], groups: [1] });
  }, 60_000);

  it('refuses a manager who is not a tenant admin every admin page, and shows Admin in the navigation only to admins', async () => {
    const before = await config();
    for (const path of [
      '/app/admin/general',
      '/app/admin/journeys',
      '/app/admin/themes',
      '/app/admin/webhooks',
      '/app/admin/keys',
      '/app/admin/users',
    ]) {
      const page = await get(path, managerCookie);
      expect(page.status, path).toBe(403);
      expect(page.body.toString()).toContain('Só os administradores da empresa abrem as páginas de administração.');
    }
    const posted = await post('/app/admin/journeys', managerCookie, journeyForm(before.version, 'intrusa'));
    expect(posted.status).toBe(403);
    const added = await post('/app/admin/webhooks', managerCookie, [
      ['etag', before.version],
      ['action', 'add'],
      ['url', 'https://hooks.example.com/intrusa'],
    ]);
    expect(added.status).toBe(403);
    expect((await config()).etag).toBe(before.etag);
    const issued = await post('/app/admin/keys', managerCookie, [
      ['action', 'issue'],
      ['name', 'intrusa'],
      ['scope', 'admin'],
    ]);
    expect(issued.status).toBe(403);
    expect(issued.body.toString()).not.toMatch(/sak_/);

    expect((await get('/app/results', managerCookie)).body.toString()).not.toContain('/app/admin/');
    const results = (await get('/app/results', adminCookie)).body.toString();
    expect(results).toContain('<a href="/app/admin/general">Admin</a>');
    expect((await get('/app/admin/journeys', adminCookie)).status).toBe(200);
  });

  it('adds a theme through the themes page, which the API reads back, and turns a suggestion into a keyword in one step', async () => {
    // Prepare: two customers' comments with a key phrase no default theme covers, analysed (a phrase one answer alone
    // said is never suggested: it may be a person's name).
    for (const [phone, comment] of [
      ['11987654321', 'O elevador parado de novo'],
      ['11987654322', 'Elevador parado outra vez'],
    ]) {
      const sale = await registerSale(api, tenant.key, { store_id: 1, phone });
      const answered = await chatbot({
        method: 'POST',
        path: '/survey',
        key: tenant.chatbotKey,
        body: { transactionId: sale, attemptId: 1, journey: 'loja', score: 3, classes: [], comment },
      });
      expect(answered.status, answered.text).toBe(201);
      expect(await commentAnalyser.reanalyse(tenant.tenantId, sale)).toBe('analysed');
    }
    const before = await config();

    // Act
    const page = (await get('/app/admin/themes', adminCookie)).body.toString();
    const added = await post('/app/admin/themes', adminCookie, [
      ['etag', before.version],
      ['slug', 'parking'],
      ['name.pt-BR', 'Estacionamento'],
      ['name.es', 'Aparcamiento'],
      ['name.en', 'Parking'],
      ['keywords.pt-BR', 'estacionamento\nvaga'],
      ['keywords.es', 'aparcamiento'],
      ['keywords.en', 'parking, parking lot'],
    ]);
    const afterAdd = await config();
    const phrase = page.match(/<input type="hidden" name="phrase" value="([^"]*elevador[^"]*)">/)?.[1];
    const keyword = await post('/app/admin/themes', adminCookie, [
      ['etag', afterAdd.version],
      ['action', 'keyword'],
      ['phrase', phrase ?? ''],
      ['language', 'pt'],
      ['theme', 'parking'],
    ]);
    const after = await config();
    const pageAfter = (await get('/app/admin/themes?saved=parking', adminCookie)).body.toString();

    // Assess
    expect(page).toContain('Estes são os temas padrão');
    expect(page).toMatch(/<h3 lang="pt-BR">[^<]*elevador[^<]*<\/h3>\n<p>2 comentários · Exemplo: resposta \d+<\/p>/);
    expect([added.status, added.headers.location]).toEqual([303, '/app/admin/themes?saved=parking']);
    const slugs = (afterAdd.body.themes as { slug: string }[]).map((theme) => theme.slug);
    expect(slugs).toEqual(['cleanliness', 'delivery', 'digital', 'parking', 'payment', 'price', 'product', 'staff', 'wait']);
    expect(afterAdd.body.themes.find((theme: { slug: string }) => theme.slug === 'parking')).toEqual({
      slug: 'parking',
      name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
      keywords: { 'pt-BR': ['estacionamento', 'vaga'], es: ['aparcamiento'], en: ['parking', 'parking lot'] },
    });
    expect(keyword.status, keyword.body.toString()).toBe(303);
    expect(after.body.themes.find((theme: { slug: string }) => theme.slug === 'parking').keywords['pt-BR']).toEqual([
      'estacionamento',
      'vaga',
      phrase,
    ]);
    expect(pageAfter).toContain('Tema parking salvo.');
    expect(pageAfter).not.toContain('Estes são os temas padrão');
    expect(pageAfter).not.toContain(`<h3 lang="pt-BR">${phrase}</h3>`);
  });

  it("sets a theme's exclusions through the page and through the API, each read back by the other, and an excluded phrase no longer makes the theme", async () => {
    // Prepare: a comment on the car park's queue, read as waiting (the default theme's "fila") until excluded.
    const comment = 'A fila do estacionamento estava enorme';
    const analysed = async (phone: string) => {
      const sale = await registerSale(api, tenant.key, { store_id: 1, phone });
      const answered = await chatbot({
        method: 'POST',
        path: '/survey',
        key: tenant.chatbotKey,
        body: { transactionId: sale, attemptId: 1, journey: 'loja', score: 4, classes: [], comment },
      });
      expect(answered.status, answered.text).toBe(201);
      expect(await commentAnalyser.reanalyse(tenant.tenantId, sale)).toBe('analysed');
      return sale;
    };
    const waiting = async () => {
      const listed = await api({
        path: '/public/answers',
        key: tenant.key,
        query: { theme: 'wait' },
        headers: { 'x-service-user-token': tenant.userToken },
      });
      expect(listed.status, listed.text).toBe(200);
      return (listed.body.data as { id: number; themes?: string[] }[]).map((answer) => answer.id);
    };
    const earlier = await analysed('11987654331');
    const before = await config();
    const wait = before.body.themes.find((theme: { slug: string }) => theme.slug === 'wait');

    // Act: the manager edits the theme's form as the page filled it, adding one exclusion a line.
    const form = themeFormOf((await get('/app/admin/themes?edit=wait', adminCookie)).body.toString()).map(
      ([name, value]): [string, string] => (name === 'exclude.pt-BR' ? [name, `${value}\nfila do estacionamento`] : [name, value]),
    );
    const saved = await post('/app/admin/themes', adminCookie, form);
    const afterPage = await config();
    const page = (await get('/app/admin/themes?saved=wait', adminCookie)).body.toString();
    const later = await analysed('11987654332');
    const taggedBeforeReanalysis = await waiting();
    expect(await commentAnalyser.reanalyse(tenant.tenantId, earlier)).toBe('analysed');
    const taggedAfter = await waiting();
    // Then through the API: an exclusion in Spanish, which the page shows in the list and in the theme's form.
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      headers: { 'if-match': afterPage.etag },
      body: {
        ...afterPage.body,
        themes: afterPage.body.themes.map((theme: { slug: string; exclude: { es: string[] } }) =>
          theme.slug === 'wait' ? { ...theme, exclude: { ...theme.exclude, es: [...theme.exclude.es, 'cola del parking'] } } : theme,
        ),
      },
    });
    const pageAfterApi = (await get('/app/admin/themes', adminCookie)).body.toString();
    const formAfterApi = themeFormOf((await get('/app/admin/themes?edit=wait', adminCookie)).body.toString());

    // Assess
    expect([saved.status, saved.headers.location], saved.body.toString()).toEqual([303, '/app/admin/themes?saved=wait']);
    const stored = afterPage.body.themes.find((theme: { slug: string }) => theme.slug === 'wait');
    expect(stored).toEqual({ ...wait, exclude: { ...wait.exclude, 'pt-BR': [...wait.exclude['pt-BR'], 'fila do estacionamento'] } });
    expect(page).toContain(`<span lang="pt-BR">${[...wait.exclude['pt-BR'], 'fila do estacionamento'].join(', ')}</span>`);
    expect(taggedBeforeReanalysis).toContain(earlier);
    expect(taggedBeforeReanalysis).not.toContain(later);
    expect(taggedAfter).not.toContain(earlier);
    expect(put.status, put.text).toBe(200);
    expect(pageAfterApi).toContain(`<span lang="es">${[...wait.exclude.es, 'cola del parking'].join(', ')}</span>`);
    expect(formAfterApi).toContainEqual(['exclude.es', [...wait.exclude.es, 'cola del parking'].join('\n')]);
    expect(formAfterApi).toContainEqual(['exclude.pt-BR', [...wait.exclude['pt-BR'], 'fila do estacionamento'].join('\n')]);
  });

  it('adds a journey as PUT /public/admin/config would: the API reads it, a sale on it is accepted at once, the audit log names the admin', async () => {
    const before = await config();
    const saved = await post('/app/admin/journeys', adminCookie, journeyForm(before.version, 'retirada'));
    expect([saved.status, saved.headers.location]).toEqual([303, '/app/admin/journeys?saved=retirada']);

    const after = await config();
    const journey = after.body.journeys.find((j: { slug: string }) => j.slug === 'retirada');
    expect(journey).toMatchObject({
      id: 5,
      name: 'Jornada retirada',
      indicator: 'csat',
      classes: [1, 3],
      channels: ['email', 'sms'],
      questions: { 'pt-BR': 'Como foi a retirada na {loja}?', es: '¿Cómo fue el retiro en {loja}?' },
    });
    expect(journey.questions.en).toBeUndefined();
    const page = (await get('/app/admin/journeys?saved=retirada', adminCookie)).body.toString();
    expect(page).toContain('Jornada retirada salva.');
    expect(page).toContain('<span lang="es">¿Cómo fue el retiro en {loja}?</span>');

    // Synchronous, so that an unknown journey would be refused here.
    await registerSale(api, tenant.key, { journey: 'retirada' });

    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    expect(audit.body.data[0]).toMatchObject({ action: 'config.replace', actor: { user: admin } });
    expect(audit.body.data[0].changes).toContainEqual({
      path: 'journeys[id=5]',
      old: null,
      new: expect.objectContaining({ slug: 'retirada' }),
    });
  });

  it('edits a journey and keeps what the form does not show (its attempts, validity, hand-off)', async () => {
    const before = await config();
    const form = journeyForm(before.version, 'atendimento-novo').map(([k, v]): [string, string] => [k, k === 'indicator' ? 'nps' : v]);
    const saved = await post('/app/admin/journeys', adminCookie, [['id', '1'], ...form]);
    expect(saved.status).toBe(303);
    const journey = (await config()).body.journeys.find((j: { id: number }) => j.id === 1);
    const was = before.body.journeys.find((j: { id: number }) => j.id === 1);
    expect(journey).toEqual({
      ...was,
      slug: 'atendimento-novo',
      name: 'Jornada atendimento-novo',
      classes: [1, 3],
      channels: ['email', 'sms'],
      questions: { 'pt-BR': 'Como foi a retirada na {loja}?', es: '¿Cómo fue el retiro en {loja}?' },
    });
  });

  it('names each wrong field next to its input and saves nothing', async () => {
    const before = await config();
    const refused = await post('/app/admin/journeys', adminCookie, [
      ['etag', before.version],
      ['slug', 'Loja Nova!'],
      ['indicator', 'csat'],
      ['classes', '99'],
      ['questions.en', 'x'.repeat(301)],
    ]);
    expect(refused.status).toBe(400);
    const html = refused.body.toString();
    const near = (id: string) =>
      new RegExp(`id="${id}"[^>]*aria-describedby="[^"]*${id}-error"`).test(html) && html.includes(`id="${id}-error"`);
    expect(near('j-slug')).toBe(true);
    expect(near('j-questions-en')).toBe(true);
    expect(html).toMatch(/id="j-channels-error">escolha pelo menos um</);
    expect(html).toMatch(/id="j-classes-error">o item 99 não está entre os itens avaliados da empresa</);
    expect(html).toMatch(/id="j-slug-error">use só letras minúsculas, números e hífens</);
    // What was typed comes back.
    expect(html).toContain('value="Loja Nova!"');
    expect((await config()).etag).toBe(before.etag);

    // A slug another journey has is the slug's problem.
    const twice = await post('/app/admin/journeys', adminCookie, journeyForm(before.version, 'ecommerce'));
    expect(twice.status).toBe(400);
    expect(twice.body.toString()).toMatch(/id="j-slug-error">ecommerce já está em uso</);
  });

  it('refuses a form read before another change (409), with what was typed still in it, and saves nothing', async () => {
    const read = await config();
    // Someone else changes the configuration through the API after the form was read.
    const other = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      headers: { 'if-match': read.etag },
      body: { ...read.body, groups: [...read.body.groups, { id: 9, name: 'Outro grupo' }] },
    });
    expect(other.status, other.text).toBe(200);
    const stale = await post('/app/admin/journeys', adminCookie, journeyForm(read.version, 'atrasada'));
    expect(stale.status).toBe(409);
    const html = stale.body.toString();
    expect(html).toContain('A configuração mudou desde que você abriu este formulário');
    expect(html).toContain('value="atrasada"');
    expect(html).toContain('¿Cómo fue el retiro en {loja}?');
    const now = await config();
    expect(now.body.journeys.map((j: { slug: string }) => j.slug)).not.toContain('atrasada');
    expect(now.body.groups).toContainEqual({ id: 9, name: 'Outro grupo' });
    // The form it answers carries the version now current: sent again, it is saved.
    expect(html).toContain(`name="etag" value="${now.version}"`);
    expect((await post('/app/admin/journeys', adminCookie, journeyForm(now.version, 'atrasada'))).status).toBe(303);
  });

  it('saves exactly one of two forms sent at once from the same read', async () => {
    const read = await config();
    const answers = await Promise.all(
      ['paralela-a', 'paralela-b'].map((slug) => post('/app/admin/journeys', adminCookie, journeyForm(read.version, slug))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([303, 409]);
    const slugs = (await config()).body.journeys.map((j: { slug: string }) => j.slug);
    expect(slugs.filter((slug: string) => slug.startsWith('paralela-'))).toHaveLength(1);
  });

  it('refuses a form posted from another site, and saves nothing', async () => {
    const before = await config();
    const forged = await post('/app/admin/journeys', adminCookie, journeyForm(before.version, 'forjada'), {
      origin: 'https://evil.example',
      host: 'localhost',
    });
    expect(forged.status).toBe(403);
    expect((await config()).etag).toBe(before.etag);
  });

  it('refuses, on AWS, an event endpoint at the instance metadata address or on plain http, saying why, and saves nothing', async () => {
    // Prepare: a deployment without the local stack's flag.
    vi.stubEnv(ENV.localDeployment, undefined);
    const before = await config();
    // On AWS the page is https (API Gateway serves nothing else), and so is its form's Origin.
    const add = (url: string) =>
      post(
        '/app/admin/webhooks',
        adminCookie,
        [
          ['etag', before.version],
          ['action', 'add'],
          ['url', url],
        ],
        { origin: 'https://localhost', host: 'localhost' },
      );

    // Act
    const metadata = await add('https://169.254.169.254/latest/meta-data/');
    const plain = await add('http://localhost:8006/events/1');
    vi.unstubAllEnvs();

    // Assess
    for (const refused of [metadata, plain]) {
      expect(refused.status).toBe(400);
      expect(refused.body.toString()).toMatch(
        /id="w-url-error">deve ser https:\/\/ num endereço público \(http e endereços locais só numa instalação local\)</,
      );
    }
    expect((await config()).etag).toBe(before.etag);
  });

  it('adds an event endpoint for some event types, refuses the same URL twice, and removes it', async () => {
    const url = `https://hooks.example.com/t${tenant.tenantId}`;
    const read = await config();
    const added = await post('/app/admin/webhooks', adminCookie, [
      ['etag', read.version],
      ['action', 'add'],
      ['url', url],
      ['events', 'survey.answered'],
      ['events', 'survey.failed'],
    ]);
    expect([added.status, added.headers.location]).toEqual([303, '/app/admin/webhooks?done=added']);
    const withIt = await config();
    expect(withIt.body.delivery.webhooks).toEqual([{ url, events: ['survey.answered', 'survey.failed'] }]);
    expect((await get('/app/admin/webhooks?done=added', adminCookie)).body.toString()).toContain(`<code>${url}</code>`);

    const again = await post('/app/admin/webhooks', adminCookie, [
      ['etag', withIt.version],
      ['action', 'add'],
      ['url', url],
    ]);
    expect(again.status).toBe(400);
    expect(again.body.toString()).toMatch(/id="w-url-error">este endereço já está na lista</);
    const plain = await post('/app/admin/webhooks', adminCookie, [
      ['etag', withIt.version],
      ['action', 'add'],
      ['url', 'http://hooks.example.com/plain'],
    ]);
    expect(plain.status).toBe(400);
    expect(plain.body.toString()).toMatch(
      /id="w-url-error">deve ser https:\/\/ num endereço público \(http e endereços locais só numa instalação local\)</,
    );

    const removed = await post('/app/admin/webhooks', adminCookie, [
      ['etag', withIt.version],
      ['action', 'remove'],
      ['url', url],
    ]);
    expect(removed.status).toBe(303);
    expect((await config()).body.delivery.webhooks).toBeUndefined();
  });

  /** Follows a post's redirect as a browser does: the shown-once cookie it sets goes with the next page only. */
  async function followShowingOnce(posted: Awaited<ReturnType<typeof post>>, cookie: string) {
    const set = posted.cookies ?? [];
    expect(set).toHaveLength(1);
    const [pair] = set[0]!.split(';');
    const page = await get(posted.headers.location!, `${cookie}; ${pair}`);
    return { page, set: set[0]!, body: page.body.toString() };
  }

  it("shows a new event endpoint's signing secret once, the secret its deliveries are signed with; added again, none", async () => {
    const url = `https://hooks.example.com/segredo-${tenant.tenantId}`;
    const add = async () =>
      post('/app/admin/webhooks', adminCookie, [
        ['etag', (await config()).version],
        ['action', 'add'],
        ['url', url],
      ]);
    const added = await add();
    const shown = await followShowingOnce(added, adminCookie);
    const secret = /<code id="new-secret" class="secret">([^<]+)<\/code>/.exec(shown.body)![1]!;
    const deliveries = eventDeliveryPorts(tenantSettings, () => process.env[ENV.surveySecret]!);
    const signing = (await deliveries.endpoint(tenant.tenantId, url, new Date()))!.secrets;
    const later = (await get('/app/admin/webhooks?done=added', `${adminCookie}; ${shown.set.split(';')[0]}`)).body.toString();
    await post('/app/admin/webhooks', adminCookie, [
      ['etag', (await config()).version],
      ['action', 'remove'],
      ['url', url],
    ]);
    const again = await add();

    expect([added.status, added.headers.location]).toEqual([303, '/app/admin/webhooks?done=added']);
    expect(shown.set).toMatch(/^sso=[\w-]+; Path=\/app\/admin\/webhooks; Max-Age=120; HttpOnly; Secure; SameSite=Strict$/);
    expect(Buffer.from(shown.set.split(';')[0]!.slice(4), 'base64url').toString('latin1')).not.toContain(secret);
    expect(signing).toEqual([secret]);
    expect(later).not.toContain(secret);
    expect(later).toContain('POST /public/admin/webhooks/rotate');
    // Listed again, the endpoint keeps the secret it had: nothing new to show.
    expect([again.status, again.headers.location, again.cookies]).toEqual([303, '/app/admin/webhooks?done=added', undefined]);
  });

  it('shows a new key once: its cookie holds no readable key, and the same cookie sent again shows nothing', async () => {
    const issued = await post('/app/admin/keys', adminCookie, [
      ['action', 'issue'],
      ['name', 'Chave mostrada uma vez'],
      ['scope', 'public'],
      ['expires_at', ''],
    ]);
    const shown = await followShowingOnce(issued, adminCookie);
    const key = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(shown.body)![1]!;
    const value = shown.set.split(';')[0]!.slice('sso='.length);
    expect(value).not.toContain(key);
    expect(Buffer.from(value, 'base64url').toString('latin1')).not.toContain(key);
    expect((await api({ path: '/public/store/1', key })).status).toBe(200);

    // The cookie replayed within its two minutes (a copied or a kept cookie): the page, without the key.
    const replayed = await get(issued.headers.location!, `${adminCookie}; sso=${value}`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.toString()).not.toContain(key);
    expect(replayed.body.toString()).toContain('A chave foi criada; o valor dela foi mostrado uma vez e não aparece de novo.');
    // Nor does the keys page of another path or a forged value take it.
    const forged = Buffer.from(JSON.stringify({ notice: 'x', secret: 'sak_forjada' })).toString('base64url');
    expect((await get(issued.headers.location!, `${adminCookie}; sso=${forged}`)).body.toString()).not.toContain('sak_forjada');
  });

  it('issues a key whose value shows once on the page after the post (a refresh posts nothing), replaces it with a grace period, and revokes it once confirmed', async () => {
    const issued = await post('/app/admin/keys', adminCookie, [
      ['action', 'issue'],
      ['name', 'ERP da loja'],
      ['scope', 'public'],
      ['expires_at', ''],
    ]);
    expect([issued.status, issued.headers.location]).toEqual([303, '/app/admin/keys?done=issued']);
    const shown = await followShowingOnce(issued, adminCookie);
    expect(shown.set).toMatch(/^sso=[\w-]+; Path=\/app\/admin\/keys; Max-Age=120; HttpOnly; Secure; SameSite=Strict$/);
    const key = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec(shown.body)![1]!;
    expect(shown.body).toContain('Chave criada. Copie agora: ela não será mostrada de novo.');
    expect(shown.page.cookies).toEqual(['sso=; Path=/app/admin/keys; Max-Age=0; HttpOnly; Secure; SameSite=Strict']);
    expect((await api({ path: '/public/store/1', key })).status).toBe(200);
    // The same address again (a refresh, the cookie gone): no value, and still one key of that name.
    const refreshed = (await get('/app/admin/keys?done=issued', adminCookie)).body.toString();
    expect(refreshed).toContain('A chave foi criada; o valor dela foi mostrado uma vez e não aparece de novo.');
    expect(refreshed).not.toContain(key);
    expect(refreshed.match(/<h3>ERP da loja /g)).toHaveLength(1);
    const id = /<li class="card key" id="key-([0-9a-f]{12})">\s*<h3>ERP da loja/.exec(refreshed)![1]!;

    const rotated = await post('/app/admin/keys', adminCookie, [
      ['action', 'rotate'],
      ['id', id],
      ['grace_seconds', '3600'],
    ]);
    expect(rotated.status).toBe(303);
    const successor = /<code id="new-key" class="secret">([^<]+)<\/code>/.exec((await followShowingOnce(rotated, adminCookie)).body)![1]!;
    expect(successor).not.toBe(key);
    for (const either of [key, successor]) expect((await api({ path: '/public/store/1', key: either })).status).toBe(200);

    // Without its confirmation ticked, a revocation is refused and the key works on.
    const unconfirmed = await post('/app/admin/keys', adminCookie, [
      ['action', 'revoke'],
      ['id', id],
    ]);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.toString()).toContain('Marque a confirmação para continuar: nada foi feito.');
    expect((await api({ path: '/public/store/1', key })).status).toBe(200);
    const revoked = await post('/app/admin/keys', adminCookie, [
      ['action', 'revoke'],
      ['id', id],
      ['confirm', 'yes'],
    ]);
    expect([revoked.status, revoked.headers.location]).toEqual([303, '/app/admin/keys?done=revoked']);
    expect((await api({ path: '/public/store/1', key })).status).toBe(401);
    expect((await api({ path: '/public/store/1', key: successor })).status).toBe(200);

    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    expect(audit.body.data.slice(0, 3).map((entry: { action: string; actor: unknown }) => [entry.action, entry.actor])).toEqual([
      ['key.revoke', { user: admin }],
      ['key.rotate', { user: admin }],
      ['key.issue', { user: admin }],
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(key);
  });

  it('names a wrong key field next to its input (an expiry passed, no name) and issues nothing', async () => {
    const before = (await get('/app/admin/keys', adminCookie)).body.toString().match(/class="card key/g)!.length;
    const refused = await post('/app/admin/keys', adminCookie, [
      ['action', 'issue'],
      ['name', 'Antiga'],
      ['scope', 'public'],
      ['expires_at', '2020-01-01T10:00'],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.body.toString()).toMatch(/id="k-expires_at-error">deve ser um momento futuro</);
    expect(refused.body.toString()).toContain('value="Antiga"');
    const unnamed = await post('/app/admin/keys', adminCookie, [
      ['action', 'issue'],
      ['name', ''],
      ['scope', 'public'],
    ]);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.toString()).toMatch(/id="k-name-error">preencha este campo</);
    const after = (await get('/app/admin/keys', adminCookie)).body.toString().match(/class="card key/g)!.length;
    expect(after).toBe(before);
  });

  it('answers a key id or a user name that no key or user can have (5,000 characters) as gone, a 400, not a server error', async () => {
    const long = `/app/${'a'.repeat(5000)}`;
    const rotated = await post('/app/admin/keys', adminCookie, [
      ['action', 'rotate'],
      ['grace_seconds', '0'],
      ['id', long],
    ]);
    const updated = await post('/app/admin/users', adminCookie, [
      ['action', 'update'],
      ['stores', ''],
      ['groups', ''],
      ['role', 'member'],
      ['name', long],
    ]);
    expect([rotated.status, updated.status]).toEqual([400, 400]);
  });

  it('invites a manager (the invitation through Cognito, their token shown once after the post), changes their scope and role, disables them once confirmed', async () => {
    const email = `convidada-${tenant.tenantId}@test.local`;
    const invited = await post('/app/admin/users', adminCookie, [
      ['action', 'create'],
      ['email', email],
      ['scope', 'some'],
      ['stores', '1'],
      ['groups', '1, 2'],
      ['role', 'member'],
    ]);
    expect([invited.status, invited.headers.location]).toEqual([303, '/app/admin/users?done=invited']);
    const shown = await followShowingOnce(invited, adminCookie);
    expect(shown.set).toMatch(/^sso=[\w-]+; Path=\/app\/admin\/users; Max-Age=120; HttpOnly; Secure; SameSite=Strict$/);
    expect(shown.body).toMatch(/<code id="new-token" class="secret">sut_/);
    expect((await get('/app/admin/users?done=invited', adminCookie)).body.toString()).not.toMatch(/sut_/);
    const listed = async () =>
      (await api({ path: '/public/admin/users', key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === email);
    expect(await listed()).toMatchObject({ scope: { stores: [1], groups: [1, 2] }, role: 'member', disabled_at: null });

    const changed = await post('/app/admin/users', adminCookie, [
      ['action', 'update'],
      ['name', email],
      ['scope', 'some'],
      ['stores', '3, 4'],
      ['groups', ''],
      ['role', 'admin'],
    ]);
    expect([changed.status, changed.headers.location]).toEqual([303, '/app/admin/users?done=changed']);
    expect(await listed()).toMatchObject({ scope: { stores: [3, 4], groups: [] }, role: 'admin' });
    const everything = await post('/app/admin/users', adminCookie, [
      ['action', 'update'],
      ['name', email],
      ['scope', 'all'],
      ['stores', '3, 4'],
      ['role', 'member'],
    ]);
    expect(everything.status).toBe(303);
    expect(await listed()).toMatchObject({ scope: 'all', role: 'member' });
    const wrongStore = await post('/app/admin/users', adminCookie, [
      ['action', 'update'],
      ['name', email],
      ['scope', 'some'],
      ['stores', 'loja'],
      ['role', 'member'],
    ]);
    expect(wrongStore.status).toBe(400);
    expect(wrongStore.body.toString()).toContain('<details class="edit" open>');
    expect(await listed()).toMatchObject({ scope: 'all' });

    const unconfirmed = await post('/app/admin/users', adminCookie, [
      ['action', 'disable'],
      ['name', email],
    ]);
    expect(unconfirmed.status).toBe(400);
    expect(unconfirmed.body.toString()).toContain('Marque a confirmação para continuar: nada foi feito.');
    expect((await listed()).disabled_at).toBeNull();
    const disabled = await post('/app/admin/users', adminCookie, [
      ['action', 'disable'],
      ['name', email],
      ['confirm', 'yes'],
    ]);
    expect(disabled.status).toBe(303);
    expect((await listed()).disabled_at).not.toBeNull();

    // Twice, or not an address: named next to the e-mail field in the tenant's language, nobody invited.
    const again = await post('/app/admin/users', adminCookie, [
      ['action', 'create'],
      ['email', email],
      ['scope', 'all'],
      ['role', 'member'],
    ]);
    expect(again.status).toBe(400);
    expect(again.body.toString()).toMatch(/id="u-email-error">já existe um usuário com este e-mail</);
    const wrong = await post('/app/admin/users', adminCookie, [
      ['action', 'create'],
      ['email', 'not-an-address'],
      ['scope', 'all'],
      ['role', 'member'],
    ]);
    expect(wrong.status).toBe(400);
    expect(wrong.body.toString()).toMatch(/id="u-email-error">deve ser um endereço de e-mail, como nome@empresa.com.br</);
    expect(wrong.body.toString()).toContain('value="not-an-address"');
  });

  it('refuses an admin disabling themself or dropping their own admin role, in their language, and offers neither', async () => {
    const page = (await get('/app/admin/users', adminCookie)).body.toString();
    const own = page.slice(page.indexOf(`<h3>${admin} <span class="you">(você)</span>`));
    const card = own.slice(0, own.indexOf('</li>'));
    expect(card).toContain('Você não pode se desativar, deixar de ser administrador nem mudar o que vê');
    expect(card).not.toContain('name="action" value="disable"');
    expect(card).not.toContain('name="action" value="update"');
    // No choice of role or scope; their own digest e-mail they may choose (its one select).
    expect(card.match(/<select/g)).toEqual(['<select']);
    expect(card).toContain('name="digest"');
    expect(card).not.toMatch(/name="(role|scope)"/);

    const disabled = await post('/app/admin/users', adminCookie, [
      ['action', 'disable'],
      ['name', admin],
      ['confirm', 'yes'],
    ]);
    const demoted = await post('/app/admin/users', adminCookie, [
      ['action', 'update'],
      ['name', admin],
      ['scope', 'all'],
      ['role', 'member'],
    ]);
    expect(disabled.status).toBe(400);
    expect(disabled.body.toString()).toContain('Você não pode se desativar: peça a outro administrador.');
    expect(demoted.status).toBe(400);
    expect(demoted.body.toString()).toContain('Você não pode deixar de ser administrador: peça a outro administrador.');
    const me = (await api({ path: '/public/admin/users', key: tenant.adminKey })).body.data.find((u: { name: string }) => u.name === admin);
    expect(me).toMatchObject({ role: 'admin', disabled_at: null });
    expect((await get('/app/admin/users', adminCookie)).status).toBe(200);
  });

  it('keeps an admin who sees some stores to granting within them and out of the keys page, in their language, and offers no change of a user who sees more', async () => {
    // Prepare: an admin of store 1 and group 1, and an address whose sign-in is another tenant's.
    const limited = `limitada-pages-${tenant.tenantId}@test.local`;
    const limitedCookie = await signedIn(limited, { stores: [1], groups: [1] }, 'admin');
    const other = await newTenant();
    const elsewhere = `de-outra-pages-${tenant.tenantId}@test.local`;
    expect(
      (await api({ method: 'POST', path: '/public/admin/users', key: other.adminKey, body: { email: elsewhere, scope: 'all' } })).status,
    ).toBe(201);
    const users = async () => (await api({ path: '/public/admin/users', key: tenant.adminKey })).body.data as { name: string }[];
    const before = await users();
    const keysBefore = keysOf(await api({ path: '/public/admin/keys', key: tenant.adminKey }));

    // Act
    const page = (await get('/app/admin/users', limitedCookie)).body.toString();
    const own = await post('/app/admin/users', limitedCookie, [
      ['action', 'update'],
      ['name', limited],
      ['scope', 'all'],
      ['role', 'admin'],
    ]);
    const wider = await post('/app/admin/users', limitedCookie, [
      ['action', 'create'],
      ['email', `mais-pages-${tenant.tenantId}@test.local`],
      ['scope', 'some'],
      ['stores', '1, 2'],
      ['groups', '1'],
      ['role', 'member'],
    ]);
    const chief = await post('/app/admin/users', limitedCookie, [
      ['action', 'disable'],
      ['name', admin],
      ['confirm', 'yes'],
    ]);
    const key = await post('/app/admin/keys', limitedCookie, [
      ['action', 'issue'],
      ['name', 'minha'],
      ['scope', 'admin'],
      ['expires_at', ''],
    ]);
    const taken = await post('/app/admin/users', adminCookie, [
      ['action', 'create'],
      ['email', elsewhere],
      ['scope', 'all'],
      ['role', 'member'],
    ]);

    // Assess
    const chiefCard = page.slice(page.indexOf(`<h3>${admin}</h3>`));
    expect(chiefCard.slice(0, chiefCard.indexOf('</li>'))).toContain(
      'Esta pessoa vê lojas ou grupos que você não vê: só um administrador que os vê pode mudá-la.',
    );
    expect(chiefCard.slice(0, chiefCard.indexOf('</li>'))).not.toContain('name="action"');
    expect(own.status).toBe(400);
    expect(own.body.toString()).toContain('Você não pode mudar o que você mesmo vê: peça a outro administrador.');
    expect(wider.status).toBe(400);
    expect(wider.body.toString()).toContain('Você só pode dar lojas e grupos que você mesmo vê.');
    expect(chief.status).toBe(400);
    expect(chief.body.toString()).toContain('Esta pessoa vê lojas ou grupos que você não vê');
    expect(taken.status).toBe(400);
    expect(taken.body.toString()).toMatch(/id="u-email-error">este e-mail não pode ser convidado para esta empresa: use outro endereço</);
    expect(key.status).toBe(403);
    expect(key.body.toString()).toContain(
      'Esta página muda o que vale para todas as lojas: só um administrador que vê todas as lojas a abre.',
    );
    expect(key.body.toString()).not.toMatch(/sak_|ssk_/);
    expect(keysOf(await api({ path: '/public/admin/keys', key: tenant.adminKey }))).toEqual(keysBefore);
    expect(await users()).toEqual(before);
  });

  /** The brand form as a browser sends it: multipart, with the logo as a file. */
  async function postBrand(cookie: string, fields: Record<string, string>, logo?: { bytes: Buffer; type: string; name: string }) {
    const form = new FormData();
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    form.append('logo', logo ? new Blob([logo.bytes], { type: logo.type }) : new Blob([]), logo?.name ?? '');
    const request = new Request('http://localhost/app/admin/brand', { method: 'POST', body: form });
    return gateway({
      method: 'POST',
      url: '/app/admin/brand',
      headers: { cookie, 'content-type': request.headers.get('content-type')!, ...SAME_ORIGIN },
      body: Buffer.from(await request.arrayBuffer()),
    });
  }
  const DEMO_LOGO = readFileSync(new URL('../../infra/local/demo-logo.png', import.meta.url));
  const brandPage = async () => (await get('/app/admin/brand', adminCookie)).body.toString();
  const versionOf = (html: string) => /name="etag" value="(\d+)"/.exec(html)![1]!;

  it('changes the brand with a logo uploaded in the form: saved and audited, the logo served and previewed, the navigation links it', async () => {
    const page = await brandPage();
    expect((await get('/app/admin/keys', adminCookie)).body.toString()).toContain('<a href="/app/admin/brand">Marca</a>');
    const saved = await postBrand(
      adminCookie,
      { etag: versionOf(page), name: 'Lojas Exemplo', colour: '#1d4ed8', senderName: 'Atendimento Exemplo' },
      { bytes: DEMO_LOGO, type: 'image/png', name: 'logo.png' },
    );
    expect([saved.status, saved.headers.location]).toEqual([303, '/app/admin/brand?done=saved']);

    const after = (await get(saved.headers.location!, adminCookie)).body.toString();
    expect(after).toContain('Marca salva');
    const src = /<img id="current-logo" src="([^"]+)"/.exec(after)![1]!;
    expect(src).toMatch(/^\/brand\/logos\/[0-9a-f]{64}\.png$/);
    const served = await gateway({ method: 'GET', url: src, headers: {}, body: Buffer.alloc(0) });
    expect([served.status, served.headers['content-type']]).toEqual([200, 'image/png']);
    expect(Buffer.compare(served.body, DEMO_LOGO)).toBe(0);
    expect(after).toContain('value="Atendimento Exemplo"');
    // Every page's header shows the new brand: the settings' caches read it (the version moved).
    expect((await get('/app/admin/keys', adminCookie)).body.toString()).toContain('<span>Lojas Exemplo</span>');

    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    const entry = audit.body.data[0];
    expect([entry.action, entry.actor]).toEqual(['config.replace', { user: admin }]);
    expect(entry.changes.map((c: { path: string }) => c.path).sort()).toEqual([
      'brand.colour',
      'brand.logo',
      'brand.name',
      'brand.senderName',
    ]);

    // The logo stays when the form sends none, and goes when asked.
    const kept = await postBrand(adminCookie, { etag: versionOf(after), name: 'Lojas Exemplo', colour: '#1d4ed8', senderName: '' });
    expect(kept.status).toBe(303);
    const keptPage = await brandPage();
    expect(keptPage).toContain(src);
    const removed = await postBrand(adminCookie, { etag: versionOf(keptPage), name: 'Lojas Exemplo', colour: '', removeLogo: 'yes' });
    expect(removed.status).toBe(303);
    expect(await brandPage()).not.toContain('id="current-logo"');
  });

  it("refuses a colour without enough contrast, an SVG logo and a stale form in the tenant's language, and saves nothing", async () => {
    const page = await brandPage();
    const version = versionOf(page);
    const pale = await postBrand(adminCookie, { etag: version, name: 'Marca Pálida', colour: '#ffd700' });
    expect(pale.status).toBe(400);
    expect(pale.body.toString()).toMatch(
      /id="b-colour-error">tem contraste de 1\.\d+:1 com o fundo #[0-9a-f]{6}; a norma WCAG AA pede pelo menos 4\.5:1: escolha uma cor mais escura</,
    );
    expect(pale.body.toString()).toContain('value="Marca Pálida"');
    const svg = await postBrand(
      adminCookie,
      { etag: version, name: 'Marca SVG' },
      {
        bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        type: 'image/svg+xml',
        name: 'logo.svg',
      },
    );
    expect(svg.status).toBe(400);
    expect(svg.body.toString()).toMatch(/id="b-logo-error">SVG não é aceito \(pode conter scripts\): exporte como PNG ou WebP</);
    const large = await postBrand(
      adminCookie,
      { etag: version, name: 'Marca Grande' },
      { bytes: Buffer.concat([DEMO_LOGO, Buffer.alloc(210 * 1024)]), type: 'image/png', name: 'big.png' },
    );
    expect(large.status).toBe(400);
    expect(large.body.toString()).toMatch(/id="b-logo-error">passa do limite de 200 KB</);
    const unnamed = await postBrand(adminCookie, { etag: version, name: '' });
    expect(unnamed.body.toString()).toMatch(/id="b-name-error">preencha este campo</);
    const stale = await postBrand(adminCookie, { etag: String(Number(version) - 1), name: 'Marca Velha' });
    expect(stale.status).toBe(409);
    expect(stale.body.toString()).toContain('A configuração mudou desde que você abriu este formulário');
    const after = await brandPage();
    expect(versionOf(after)).toBe(version);
    expect(after).not.toMatch(/Marca (Pálida|SVG|Grande|Velha)/);
    expect((await postBrand(managerCookie, { etag: version, name: 'Intrusa' })).status).toBe(403);
  });

  it('saves exactly one of two brand forms sent at once from the same read; the other is refused as stale', async () => {
    const version = versionOf(await brandPage());
    const [first, second] = await Promise.all([
      postBrand(adminCookie, { etag: version, name: 'Marca Um', colour: '#1d4ed8' }),
      postBrand(adminCookie, { etag: version, name: 'Marca Dois', colour: '#7c2d12' }),
    ]);
    expect([first.status, second.status].sort()).toEqual([303, 409]);
    const winner = first.status === 303 ? 'Marca Um' : 'Marca Dois';
    const after = await brandPage();
    expect(after).toContain(`value="${winner}"`);
    expect(Number(versionOf(after))).toBeGreaterThan(Number(version));
  });

  it("speaks the tenant's language and shows its brand: a tenant whose locale is es gets the admin pages in Spanish", async () => {
    const spanish = await newTenant();
    await putSettings(spanish.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
    const email = `admin-es-${spanish.tenantId}@test.local`;
    const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
    await tenantService.createUser(spanish.tenantId, { name: email, scope: 'all', role: 'admin' });
    await directory.invite({ email, tenantId: spanish.tenantId, temporaryPassword: 'Temp-admin-pages-1!' });
    await directory.setPassword(email, PASSWORD);
    const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(email, PASSWORD);
    if (outcome.kind !== 'signed-in') throw new Error(outcome.kind);
    const page = (await get('/app/admin/journeys', `sid=${outcome.tokens.idToken}`)).body.toString();
    expect(page).toContain('<html lang="es">');
    expect(page).toContain('<h1>Recorridos</h1>');
    expect(page).toContain('Pregunta principal');
    expect(page).toContain(`<p class="brand"><span>${'test-'}`);
    const unnamed = await post('/app/admin/keys', `sid=${outcome.tokens.idToken}`, [
      ['action', 'issue'],
      ['name', ''],
      ['scope', 'public'],
    ]);
    expect(unnamed.status).toBe(400);
    expect(unnamed.body.toString()).toMatch(/id="k-name-error">complete este campo</);
    expect(unnamed.body.toString()).toContain('No se guardó nada. Corrija los campos marcados:');
  });
});

describe('the local tenant file', () => {
  it("makes the demo tenant's gerente@demo.local (every store) a tenant admin who opens the admin pages", async () => {
    const outcome = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(
      DEMO_MANAGERS[0]!.email,
      DEMO_MANAGERS[0]!.password,
    );
    if (outcome.kind !== 'signed-in') throw new Error(outcome.kind);
    expect((await get('/app/admin/journeys', `sid=${outcome.tokens.idToken}`)).status).toBe(200);
    const storeManager = await cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!).signIn(
      DEMO_MANAGERS[1]!.email,
      DEMO_MANAGERS[1]!.password,
    );
    if (storeManager.kind !== 'signed-in') throw new Error(storeManager.kind);
    expect((await get('/app/admin/journeys', `sid=${storeManager.tokens.idToken}`)).status).toBe(403);
  });
});
