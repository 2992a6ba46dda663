import { beforeAll, describe, expect, it } from 'vitest';
import { KIOSK_DAILY_CAP } from '../../shared/in-store/kiosk-schema.js';
import { KIOSK_ANSWER_LIMIT } from '../../shared/in-store/kiosk.js';
import { QR_ANSWER_LIMIT } from '../../shared/in-store/qr-page.js';
import { transactionService } from '../../shared/adapters/wiring/transactions.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';
import { putSettings } from '../../shared/adapters/tenant-repository.js';

/**
 * Issue 50 through the gateway and the real handlers, the stack booted once: a store's QR code, its page, its answer
 * as a transaction of source `qr` counted in the results and listed in the answers, its bounds (a browser's cookie, a
 * rate per address under 200 answers at once, a honeypot), and its rotation; a kiosk registered, answering through its
 * tablet's cookie within its device's bound, listed without its token, and revoked.
 */
usePrivateQueue('surveyDispatch');
const api = inProcess('public');
let tenant: TestTenant;
/** Employees of their own, so each scenario's answers are told apart by the employee filter. */
let contactEmployee: number;
let floodEmployee: number;
let kioskEmployee: number;
let cappedEmployee: number;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const today = new Date().toISOString().slice(0, 10);
const pathOf = (url: string) => new URL(url).pathname;

const qrUrl = async (query: Record<string, string | number>) => {
  const res = await api({ path: '/public/admin/qr', key: tenant.adminKey, query: { journey: 'loja', ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.url as string;
};
const post = (path: string, body: string, headers: Record<string, string> = {}) =>
  api({ method: 'POST', path, headers: { ...FORM, ...headers }, body });
const answers = (query: Record<string, string | number>) =>
  api({
    path: '/public/answers',
    key: tenant.key,
    query: { from: today, to: today, ...query },
    headers: { 'x-service-user-token': tenant.userToken },
  });
const results = (query: Record<string, string | number>) =>
  api({
    path: '/public/results',
    key: tenant.key,
    headers: { 'x-service-user-token': tenant.userToken },
    query: { journey: 'loja', from: today, to: today, group_by: 'store', ...query },
  });
const storeResponses = async (store: number, source?: string) => {
  const res = await results({ store, ...(source ? { source } : {}) });
  expect(res.status, res.text).toBe(200);
  return (res.body.data as { responses: number }[]).reduce((sum, row) => sum + row.responses, 0);
};

const userHeaders = () => ({ 'x-service-user-token': tenant.userToken });
/** A new employee of `stores` (internal ids). */
const newEmployee = async (name: string, stores: number[]) => {
  const id = (await api({ method: 'POST', path: '/public/employee', key: tenant.key, body: { name, employee_id: name } })).body
    .id as number;
  if (stores.length) {
    const linked = await api({
      method: 'PUT',
      path: `/public/employee/${id}/stores`,
      key: tenant.key,
      body: { stores },
      headers: userHeaders(),
    });
    expect(linked.status, linked.text).toBe(200);
  }
  return id;
};
const newStore = async (trade_name: string) =>
  (await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name } })).body.id as number;

beforeAll(async () => {
  tenant = await newTenant();
  const employee = (name: string) => newEmployee(name, [1]);
  [contactEmployee, floodEmployee, kioskEmployee, cappedEmployee] = await Promise.all([
    employee('QR-CONTACT'),
    employee('QR-FLOOD'),
    employee('KIOSK'),
    employee('KIOSK-CAP'),
  ]);
});

describe('a store QR code', () => {
  it('answers the URL as JSON, the code as SVG by default and as PNG by Accept', async () => {
    const url = await qrUrl({ store: 1 });
    expect(url).toMatch(/\/q\/[\w-]{47}$/);
    const svg = await api({
      path: '/public/admin/qr',
      key: tenant.adminKey,
      query: { store: 1, journey: 'loja' },
      headers: { accept: '*/*' },
    });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.text).toContain('<svg');
    const png = await api({
      path: '/public/admin/qr',
      key: tenant.adminKey,
      query: { store: 1, journey: 'loja' },
      headers: { accept: 'image/png' },
    });
    expect(png.headers['content-type']).toBe('image/png');
    expect((await api({ path: '/public/admin/qr', key: tenant.adminKey, query: { store: 999, journey: 'loja' } })).status).toBe(404);
    expect((await api({ path: '/public/admin/qr', key: tenant.adminKey, query: { store: 1, journey: 'nope' } })).status).toBe(422);
    expect((await api({ path: '/public/admin/qr', key: tenant.key, query: { store: 1, journey: 'loja' } })).status).toBe(403);
  });

  it('opens the branded page, records a 9 as a qr answer, refuses the same browser, and answers 410 once rotated', async () => {
    const path = pathOf(await qrUrl({ store: 1 }));
    const page = await api({ path, headers: { 'accept-language': 'pt-BR' } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post"');
    expect(page.text).toContain('name="email"');
    const before = await storeResponses(1);

    const answered = await post(path, 'score=9&comment=Atendimento+%C3%B3timo&email=&phone=&website=');
    expect(answered.status, answered.text).toBe(303);
    expect(answered.headers.location).toMatch(/\?thanks=promoter$/);
    const cookie = answered.cookies[0]!.split(';')[0]!;
    expect(cookie).toMatch(/^qa_[\w-]+=/);
    const thanks = await api({ path: `${path}?thanks=promoter` });
    expect(thanks.text).toContain('Obrigado');

    expect(await storeResponses(1)).toBe(before + 1);
    const listed = await answers({ source: 'qr', store: 1 });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ channel: 'qr', score: 9, store: 1, employee: 1, comment: 'Atendimento ótimo' }),
    ]);
    expect((await answers({ source: 'whatsapp', store: 1 })).body.data).toEqual([]);

    const again = await post(path, 'score=3', { cookie });
    expect(again.status).toBe(409);
    expect(again.text).toContain('12 horas');

    const rotated = await api({ method: 'POST', path: '/public/admin/qr/rotate', key: tenant.adminKey });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body.generation).toBe(2);
    expect((await api({ path })).status).toBe(410);
    expect((await post(path, 'score=9')).status).toBe(410);
    const audit = await api({ path: '/public/admin/audit', key: tenant.adminKey });
    expect(audit.body.data[0]).toMatchObject({ action: 'qr.rotate', changes: [{ path: 'qr.generation', old: 1, new: 2 }] });
    // A new code works at once.
    expect((await api({ path: pathOf(await qrUrl({ store: 1 })) })).status).toBe(200);
  });

  it('tells a browser that answered the code already on the page itself, before it types anything', async () => {
    const path = pathOf(await qrUrl({ store: 1, employee: await newEmployee('QR-AGAIN', [1]) }));
    const answered = await post(path, 'score=10');
    expect(answered.status, answered.text).toBe(303);
    const cookie = answered.cookies[0]!.split(';')[0]!;
    // The thanks it is sent to still thanks it.
    expect((await api({ path: `${path}?thanks=promoter`, headers: { cookie } })).text).toContain('Obrigado');
    const again = await api({ path, headers: { cookie } });
    expect(again.status).toBe(409);
    expect(again.text).toContain('Você já respondeu');
    expect(again.text).not.toContain('<form');
    // Another browser gets the form.
    expect((await api({ path })).text).toContain('<form method="post"');
  });

  it("speaks the tenant's language to a browser asking for one the service lacks", async () => {
    const spanish = await newTenant();
    await putSettings(spanish.tenantId, { ...DEMO_SETTINGS, locale: 'es' });
    const res = await api({ path: '/public/admin/qr', key: spanish.adminKey, query: { store: 1, journey: 'loja' } });
    expect(res.status, res.text).toBe(200);
    const path = pathOf(res.body.url as string);
    const french = await api({ path, headers: { 'accept-language': 'fr-FR' } });
    expect(french.status).toBe(200);
    expect(french.text).toContain('<html lang="es">');
    expect((await post(path, 'score=x', { 'accept-language': 'fr-FR' })).text).toContain('<html lang="es">');
    // A language the service has is still the browser's.
    expect((await api({ path, headers: { 'accept-language': 'en-US,fr;q=0.8' } })).text).toContain('<html lang="en">');
  });

  it('keeps a contact left by the customer, refuses a bad one, and drops what fills the hidden field', async () => {
    const path = pathOf(await qrUrl({ store: 1, employee: contactEmployee }));
    const bad = await post(path, 'score=2&email=nope');
    expect(bad.status).toBe(400);
    expect(bad.text).toContain('O e-mail não parece válido.');
    expect(bad.text).toContain('value="nope"');

    const bot = await post(path, 'score=0&website=http%3A%2F%2Fspam.example');
    expect(bot.status).toBe(303);
    expect((await answers({ source: 'qr', employee: contactEmployee })).body.data).toEqual([]);

    expect((await post(path, 'score=2&comment=Fila+enorme&email=walkin%40example.com')).status).toBe(303);
    const [listed] = (await answers({ source: 'qr', employee: contactEmployee })).body.data;
    expect(listed).toMatchObject({ score: 2, employee: contactEmployee });
    const customers = await api({
      path: '/public/customer',
      key: tenant.key,
      query: { email: 'walkin@example.com' },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(customers.body.data.map((c: { id: number }) => c.id)).toEqual([listed.customer.id]);
  });

  // 200 requests at once through the handlers: 23 s on a machine loaded 27 deep on its 2 cores.
  it(
    `records at most ${QR_ANSWER_LIMIT.answers} of 200 answers at once from one address, the rest 429, none lost`,
    { timeout: 90_000 },
    async () => {
      const path = pathOf(await qrUrl({ store: 1, employee: floodEmployee }));
      const responses = await Promise.all(Array.from({ length: 200 }, () => post(path, 'score=10')));
      const statuses = responses.map((res) => res.status);
      const accepted = statuses.filter((s) => s === 303).length;
      expect(accepted).toBe(QR_ANSWER_LIMIT.answers);
      expect(statuses.filter((s) => s === 429)).toHaveLength(200 - accepted);
      // Each refusal says when the address's window ends (issue 58).
      for (const res of responses.filter((r) => r.status === 429)) {
        const seconds = Number(res.headers['retry-after']);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(seconds).toBeLessThanOrEqual(QR_ANSWER_LIMIT.windowSeconds);
      }
      const listed = await answers({ source: 'qr', employee: floodEmployee, limit: 100 });
      expect(listed.body.data).toHaveLength(accepted);
    },
  );
});

describe("the results' source", () => {
  it("counts a qr answer and a sale's apart on one store, a duplicate once, and names a bad source", async () => {
    const store = (await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja QR' } })).body
      .id as number;
    expect((await post(pathOf(await qrUrl({ store })), 'score=9')).status).toBe(303);
    await registerSale(api, tenant.key, { store_id: store, score: 3 });
    expect([await storeResponses(store, 'qr'), await storeResponses(store, 'transaction'), await storeResponses(store)]).toEqual([1, 1, 2]);
    const [row] = (await results({ store })).body.data;
    expect(row.sources).toEqual({ transaction: 1, qr: 1, kiosk: 0 });
    expect(await storeResponses(store, 'kiosk')).toBe(0);

    // The same walk-in answer delivered twice (one request key): one transaction, counted once in every view.
    const walkIn = () =>
      transactionService.registerTransaction(tenant.tenantId, {
        command: {
          store: { id: store },
          employee: { id: 1 },
          customer: { externalId: 'walk-in-anonymous' },
          journey: { id: 1 },
          params: {},
          rating: { score: 10 },
          ratingItems: [],
        },
        requestKey: `walk-in-${store}`,
        source: 'qr',
      });
    expect([(await walkIn()).duplicate, (await walkIn()).duplicate]).toEqual([false, true]);
    expect([await storeResponses(store, 'qr'), await storeResponses(store, 'transaction'), await storeResponses(store)]).toEqual([2, 1, 3]);

    const bad = await results({ store, source: 'api' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ path: 'source', message: 'must be one of transaction, qr, kiosk' }]);
    expect((await results({ group_by: 'theme', source: 'qr' })).body.errors).toEqual([
      { path: 'source', message: 'is not taken with group_by=theme' },
    ]);
  });
});

describe('a kiosk', () => {
  it('registers a tablet, answers through /k as a kiosk answer, bounds the device, and records nothing once revoked', async () => {
    const admin = (method: string, path: string, body?: unknown) => api({ method, path, key: tenant.adminKey, body });
    const unknown = await admin('POST', '/public/admin/kiosks', { store: 999, journey: 'nope', name: 'Caixa' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([expect.objectContaining({ path: 'store' }), expect.objectContaining({ path: 'journey' })]);
    expect((await admin('POST', '/public/admin/kiosks', { store: 1, journey: 'loja', name: '' })).status).toBe(400);
    expect((await api({ method: 'POST', path: '/public/admin/kiosks', key: tenant.key, body: {} })).status).toBe(403);
    const registered = await admin('POST', '/public/admin/kiosks', { store: 1, journey: 'loja', employee: kioskEmployee, name: 'Caixa 1' });
    expect(registered.status, registered.text).toBe(201);
    const { id, token, url } = registered.body as { id: string; token: string; url: string };
    expect(pathOf(url)).toBe(`/k/${token}`);
    const listed = await admin('GET', '/public/admin/kiosks');
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id, name: 'Caixa 1', store: 1, employee: kioskEmployee, revoked_at: null }),
    ]);
    expect(listed.text).not.toContain(token);

    // The tablet opens its address once: the token goes to a cookie, the address to /k without it.
    const entered = await api({ path: pathOf(url) });
    expect(entered.status).toBe(303);
    expect(new URL(entered.headers.location!, url).pathname).toBe('/k');
    const set = entered.cookies[0]!;
    expect(set).toMatch(/^kiosk=[\w-]{38}; Max-Age=34560000; HttpOnly; Secure; SameSite=Lax$/);
    const cookie = set.split(';')[0]!;
    expect((await api({ path: '/k' })).status).toBe(401);
    const page = await api({ path: '/k', headers: { cookie } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('<form method="post" action="k" class="kiosk">');

    // The device's bound counts in fixed windows: start well inside one, so the answers below all fall in it.
    const left = KIOSK_ANSWER_LIMIT.windowSeconds * 1000 - (Date.now() % (KIOSK_ANSWER_LIMIT.windowSeconds * 1000));
    if (left < 8000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const answered = await post('/k', 'score=9&comment=Muito+bom', { cookie });
    expect(answered.status, answered.text).toBe(303);
    expect(answered.headers.location).toBe('k?thanks=promoter');
    const thanks = await api({ path: '/k?thanks=promoter', headers: { cookie } });
    expect(thanks.text).toContain('<meta http-equiv="refresh" content="10;url=k">');
    // A shared device: the next customer answers at once (no 12-hour cookie), up to the device's bound.
    const more = await Promise.all(Array.from({ length: KIOSK_ANSWER_LIMIT.answers }, () => post('/k', 'score=4', { cookie })));
    expect(more.map((r) => r.status).sort()).toEqual([...Array(KIOSK_ANSWER_LIMIT.answers - 1).fill(303), 429]);
    const burst = Number(more.find((r) => r.status === 429)!.headers['retry-after']);
    expect(burst).toBeGreaterThanOrEqual(1);
    expect(burst).toBeLessThanOrEqual(KIOSK_ANSWER_LIMIT.windowSeconds);
    const recorded = await answers({ source: 'kiosk', employee: kioskEmployee, limit: 100 });
    expect(recorded.body.data).toHaveLength(KIOSK_ANSWER_LIMIT.answers);
    expect(recorded.body.data).toContainEqual(expect.objectContaining({ channel: 'kiosk', score: 9, store: 1, comment: 'Muito bom' }));

    const revoked = await admin('DELETE', `/public/admin/kiosks/${id}`);
    expect(revoked.status, revoked.text).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await post('/k', 'score=10', { cookie })).status).toBe(410);
    expect((await api({ path: pathOf(url) })).status).toBe(410);
    expect((await answers({ source: 'kiosk', employee: kioskEmployee, limit: 100 })).body.data).toHaveLength(KIOSK_ANSWER_LIMIT.answers);
    expect((await admin('DELETE', '/public/admin/kiosks/0000000000000000')).status).toBe(404);
    const audit = await admin('GET', '/public/admin/audit');
    expect(audit.body.data.slice(0, 2).map((e: { action: string }) => e.action)).toEqual(['kiosk.revoke', 'kiosk.register']);
  });

  it('refuses the answers past the daily cap the admin set, with a page saying why, and records none of them', async () => {
    const admin = (body: unknown) => api({ method: 'POST', path: '/public/admin/kiosks', key: tenant.adminKey, body });
    const kiosk = { store: 1, journey: 'loja', employee: cappedEmployee, name: 'Saída' };
    for (const daily_cap of [0, KIOSK_DAILY_CAP.max + 1, 1.5]) {
      const refused = await admin({ ...kiosk, daily_cap });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'daily_cap' })]);
    }
    const registered = await admin({ ...kiosk, daily_cap: 2 });
    expect(registered.status, registered.text).toBe(201);
    expect(registered.body.daily_cap).toBe(2);
    const entered = await api({ path: pathOf(registered.body.url as string) });
    const cookie = entered.cookies[0]!.split(';')[0]!;
    // In turn: the cap is the day's, whatever the device's short window.
    expect((await post('/k', 'score=8', { cookie })).status).toBe(303);
    expect((await post('/k', 'score=7', { cookie })).status).toBe(303);
    const past = await post('/k', 'score=10', { cookie });
    expect(past.status).toBe(429);
    // Until the tenant's next midnight.
    expect(Number(past.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(past.headers['retry-after'])).toBeLessThanOrEqual(86_400);
    expect(past.text).toContain('Este tablet já recebeu todas as respostas de hoje.');
    const recorded = await answers({ source: 'kiosk', employee: cappedEmployee, limit: 100 });
    expect(recorded.body.data.map((a: { score: number }) => a.score).sort()).toEqual([7, 8]);
  });
});

describe('the store and employee of a QR code or kiosk (issue 58)', () => {
  const register = (body: Record<string, unknown>) =>
    api({ method: 'POST', path: '/public/admin/kiosks', key: tenant.adminKey, body: { journey: 'loja', name: 'Caixa', ...body } });
  const code = (query: Record<string, string | number>) =>
    api({ path: '/public/admin/qr', key: tenant.adminKey, query: { journey: 'loja', ...query } });

  it('refuses an employee who does not work at the store, and a store that is inactive, naming each', async () => {
    const elsewhere = await newStore('Loja Vizinha');
    const theirs = await newEmployee('OTHER-STORE', [elsewhere]);
    for (const [employee, message] of [
      [999, 'employee 999 does not exist'],
      [theirs, `employee ${theirs} does not work at store 1`],
    ] as const) {
      const refused = await code({ store: 1, employee });
      expect(refused.status, refused.text).toBe(422);
      expect(refused.body.errors).toEqual([{ path: 'employee', message }]);
      const kiosk = await register({ store: 1, employee });
      expect(kiosk.status, kiosk.text).toBe(400);
      expect(kiosk.body.errors).toEqual([{ path: 'employee', message }]);
    }
    // At their own store they are welcome.
    expect((await code({ store: elsewhere, employee: theirs })).status).toBe(200);

    expect((await api({ method: 'DELETE', path: `/public/store/${elsewhere}`, key: tenant.key })).status).toBe(200);
    const inactive = await code({ store: elsewhere });
    expect(inactive.status, inactive.text).toBe(422);
    expect(inactive.body.errors).toEqual([{ path: 'store', message: `store ${elsewhere} is inactive` }]);
    const kiosk = await register({ store: elsewhere });
    expect(kiosk.status, kiosk.text).toBe(400);
    expect(kiosk.body.errors).toEqual([{ path: 'store', message: `store ${elsewhere} is inactive` }]);
    expect((await api({ path: '/public/admin/kiosks', key: tenant.adminKey })).body.data).not.toContainEqual(
      expect.objectContaining({ store: elsewhere }),
    );
  });

  it('says a code or kiosk of a store deactivated since is no longer in use, on its page and its post, and records nothing', async () => {
    const store = await newStore('Loja Que Fecha');
    const path = pathOf(await qrUrl({ store }));
    const registered = await register({ store });
    expect(registered.status, registered.text).toBe(201);
    const cookie = (await api({ path: pathOf(registered.body.url as string) })).cookies[0]!.split(';')[0]!;
    expect((await api({ path: '/k', headers: { cookie } })).status).toBe(200);

    expect((await api({ method: 'DELETE', path: `/public/store/${store}`, key: tenant.key })).status).toBe(200);
    for (const answered of [
      await api({ path }),
      await post(path, 'score=9&comment=Bom'),
      await api({ path: '/k', headers: { cookie } }),
      await post('/k', 'score=9&comment=Bom', { cookie }),
    ]) {
      expect(answered.status, answered.text).toBe(410);
      expect(answered.text).toMatch(/Este (QR code|tablet) não está mais em uso/);
      expect(answered.text).not.toContain('<form');
    }
    expect(await storeResponses(store)).toBe(0);
    expect((await answers({ store })).body.data).toEqual([]);
  });

  it('closes a code whose employee left the store since', async () => {
    const leaving = await newEmployee('LEAVING', [1]);
    const path = pathOf(await qrUrl({ store: 1, employee: leaving }));
    expect((await api({ path })).status).toBe(200);
    const moved = await api({
      method: 'PUT',
      path: `/public/employee/${leaving}/stores`,
      key: tenant.key,
      body: { stores: [] },
      headers: userHeaders(),
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await api({ path })).status).toBe(410);
    expect((await post(path, 'score=9')).status).toBe(410);
    expect((await answers({ employee: leaving })).body.data).toEqual([]);
  });
});
