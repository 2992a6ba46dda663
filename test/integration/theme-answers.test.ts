import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchWrite, db } from '../../shared/adapters/dynamodb.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { commentAnalyser } from '../../shared/adapters/wiring/themes.js';
import { keys } from '../../shared/keys.js';
import { erase } from '../../shared/privacy/service.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { DEMO_SETTINGS, newTenant, type TestTenant } from '../support/tenant.js';

/**
 * The themes through the API (issue 47): each answer's sentiment and themes in GET /public/answers, its filters by
 * theme and sentiment (served by the analysis's own list entries), and GET /public/results?group_by=theme against a
 * count over 200 generated answers. The analyser's function is called directly (no poller), against DynamoDB Local and
 * the local Comprehend.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('events');
const analysisQueue = usePrivateQueue('analysis');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;
const loja = DEMO_SETTINGS.journeys.find((journey) => journey.slug === 'loja')!;

const answer = (id: number, score: number, comment: string, method: 'POST' | 'PUT' = 'POST') =>
  chatbot({
    method,
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [], comment },
  });

async function answered(score: number, comment: string): Promise<number> {
  const id = await registerSale(api, tenant.key, { phone: '11987654321' });
  expect((await answer(id, score, comment)).status).toBe(201);
  return id;
}

/** The analyses the queue asks for, each run by the analyser's function. */
async function analyse(): Promise<void> {
  const messages = (await analysisQueue.drain()) as { tenantId: number; transactionId: number; version: number }[];
  for (const { tenantId, transactionId, version } of messages) await commentAnalyser.analyse(tenantId, transactionId, version);
}

const listAnswers = (query: Record<string, string>) =>
  api({ path: '/public/answers', key: tenant.key, query, headers: { 'x-service-user-token': tenant.userToken } });

const idsOf = (body: { data: { id: number }[] }) => body.data.map((a) => a.id).sort((a, b) => a - b);

beforeAll(async () => {
  tenant = await newTenant();
});

describe('the themes of the answers in GET /public/answers', () => {
  let fila: number, personal: number, prices: number;

  it('shows each answer its sentiment and themes once analysed, null before', async () => {
    fila = await answered(2, 'A fila estava enorme, esperei 40 minutos no caixa');
    personal = await answered(10, 'El personal fue muy amable');
    prices = await answered(3, 'Prices are too high for what you get');
    const before = await listAnswers({ has_comment: 'true' });
    expect(before.status).toBe(200);
    expect(before.body.data.find((a: { id: number }) => a.id === fila)).toMatchObject({ sentiment: null, themes: null });

    await analyse();
    const after = await listAnswers({});
    const byId = (id: number) => after.body.data.find((a: { id: number }) => a.id === id);
    expect(byId(fila)).toMatchObject({ sentiment: 'negative', themes: expect.arrayContaining(['wait']) });
    expect(byId(personal)).toMatchObject({ sentiment: 'positive', themes: ['staff'] });
    expect(byId(prices)).toMatchObject({ sentiment: 'negative', themes: ['price'] });
  });

  it('filters by theme and by sentiment, with the other filters and in a store', async () => {
    expect(idsOf((await listAnswers({ theme: 'wait' })).body)).toEqual([fila]);
    expect(idsOf((await listAnswers({ sentiment: 'negative' })).body)).toEqual([fila, prices].sort((a, b) => a - b));
    expect(idsOf((await listAnswers({ sentiment: 'positive', store: '1' })).body)).toEqual([personal]);
    expect(idsOf((await listAnswers({ sentiment: 'positive', store: '2' })).body)).toEqual([]);
    expect(idsOf((await listAnswers({ theme: 'price', bucket: 'detractor' })).body)).toEqual([prices]);
    expect(idsOf((await listAnswers({ theme: 'price', bucket: 'promoter' })).body)).toEqual([]);
    expect(idsOf((await listAnswers({ theme: 'price', has_comment: 'false' })).body)).toEqual([]);
  });

  it('refuses a theme that is not the tenant’s and a sentiment off the list, naming them', async () => {
    const wrong = await listAnswers({ theme: 'parking', sentiment: 'angry' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(['sentiment']);
    const unknown = await listAnswers({ theme: 'parking' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ path: 'theme', message: 'is not a theme of this tenant' }]);
    expect((await listAnswers({ theme: 'Not A Slug' })).status).toBe(422);
  });

  it('moves an answer between the lists when a correction changes its comment', async () => {
    expect((await answer(prices, 10, 'Prices are great and the staff was very friendly', 'PUT')).status).toBe(200);
    await analyse();
    expect(idsOf((await listAnswers({ sentiment: 'negative' })).body)).toEqual([fila]);
    expect(idsOf((await listAnswers({ theme: 'staff' })).body)).toEqual([personal, prices].sort((a, b) => a - b));
    expect(idsOf((await listAnswers({ theme: 'price', bucket: 'promoter' })).body)).toEqual([prices]);
  });

  it('takes an erased customer’s answer out of the lists of its themes and sentiment', async () => {
    const clientId = `E-${tenant.tenantId}-themes`;
    const id = await registerSale(api, tenant.key, { customer_integration: clientId, name: 'Titular', phone: '11987650000' });
    expect((await answer(id, 1, 'Entrega atrasou de novo')).status).toBe(201);
    await analyse();
    expect(idsOf((await listAnswers({ theme: 'delivery' })).body)).toEqual([id]);
    const request = await api({
      method: 'POST',
      path: '/public/privacy/requests',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      body: { type: 'erase', client_id: clientId },
    });
    expect(request.status, request.text).toBe(202);
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, id) }));
    await erase(dataSubjects, tenant.tenantId, {
      customerId: Item!.customer_id as number,
      mark: {
        requestId: request.body.id as string,
        at: new Date().toISOString(),
      },
    });

    expect(idsOf((await listAnswers({ theme: 'delivery' })).body)).toEqual([]);
    const { Items = [] } = await db().client.send(
      new QueryCommand({
        TableName: db().tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :entries)',
        ExpressionAttributeValues: { ':pk': keys.transaction(tenant.tenantId, id).pk, ':entries': 'ANSWERS#' },
      }),
    );
    expect(Items).toEqual([]);
  });
});

/** A small deterministic generator (mulberry32), so that a failure shows the same answers again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One keyword of each default theme per language, none of them another theme's, and sentences around them whose other
 * words are all stopwords: the key phrases (shared/themes/extraction.ts) are then only the keywords, which a theme covers, so the analysis
 * counts no suggestion (that second write, up to 30 cells an answer, is tested with the suggestions).
 */
const WORDS = {
  pt: ['fila', 'atendente', 'preço', 'banheiro', 'qualidade', 'entrega', 'pix', 'aplicativo'],
  es: ['cola', 'empleado', 'precio', 'baño', 'calidad', 'envío', 'tarjeta', 'app'],
  en: ['queue', 'cashier', 'price', 'bathroom', 'quality', 'shipping', 'card', 'website'],
} as const;
const SENTENCES = {
  pt: (words: string[]) => `Hoje, sobre ${words.join(' e também ') || 'tudo'}, vocês podem fazer muito mais por nós.`,
  es: (words: string[]) => `Hoy, sobre ${words.join(' y también ') || 'todo'}, ustedes pueden hacer mucho más por nosotros.`,
  en: (words: string[]) =>
    `Today, about ${words.map((word) => `the ${word}`).join(' and also ') || 'everything'}, you could do much more for us.`,
};

interface Generated {
  id: number;
  store: number;
  day: string;
  score: number;
  themes: string[];
  comment: string;
}

function generate(count: number, seed: number, firstId: number): Generated[] {
  const next = random(seed);
  const pick = (n: number) => Math.floor(next() * n);
  const start = Date.parse('2026-01-20T00:00:00Z');
  return Array.from({ length: count }, (_, i) => {
    const language = (['pt', 'es', 'en'] as const)[pick(3)]!;
    const chosen = [...new Set(Array.from({ length: pick(3) }, () => pick(8)))];
    return {
      id: firstId + i,
      store: 1 + pick(4),
      day: new Date(start + pick(101) * 86_400_000).toISOString().slice(0, 10),
      score: pick(11),
      themes: chosen.map((t) => DEFAULT_THEMES[t]!.slug),
      comment: SENTENCES[language](chosen.map((t) => WORDS[language][t]!)),
    };
  });
}

/** The report's figures counted over the raw answers: the test's own count, not the service's. */
function expected(answers: Generated[], from: string, to: string) {
  const rows = new Map<string, { comments: number; detractors: number; passives: number; promoters: number }>();
  for (const a of answers.filter((a) => a.day >= from && a.day <= to))
    for (const theme of a.themes) {
      const row = rows.get(theme) ?? { comments: 0, detractors: 0, passives: 0, promoters: 0 };
      row.comments++;
      if (a.score <= 6) row.detractors++;
      else if (a.score <= 8) row.passives++;
      else row.promoters++;
      rows.set(theme, row);
    }
  return rows;
}

describe('GET /public/results?group_by=theme', () => {
  const answers = generate(200, 47, 900_000_000);
  const from = '2026-03-15';
  const to = '2026-04-30';
  const previous = { from: '2026-01-27', to: '2026-03-14' };

  beforeAll(async () => {
    await batchWrite(
      db(),
      answers.map((a) => ({
        PutRequest: {
          Item: {
            ...keys.transaction(tenant.tenantId, a.id),
            id: a.id,
            status: 'created',
            journey_id: loja.id,
            store_id: a.store,
            employee_id: 1,
            customer_id: 1,
            answer_version: 1,
            answered_at: `${a.day}T12:00:00.000Z`,
            rating: { score: a.score, comment: a.comment },
            rating_items: [],
          },
        },
      })),
    );
    const queue = [...answers];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let a = queue.shift(); a; a = queue.shift()) expect(await commentAnalyser.analyse(tenant.tenantId, a.id, 1)).toBe('analysed');
      }),
    );
  }, 300_000);

  const report = (query: Record<string, string>) =>
    api({
      path: '/public/results',
      key: tenant.key,
      query: { journey: 'loja', from, to, group_by: 'theme', ...query },
      headers: { 'x-service-user-token': tenant.userToken },
    });

  const nps = (row: { comments: number; detractors: number; promoters: number }) =>
    Math.round(((row.promoters - row.detractors) / row.comments) * 100 * 10) / 10;

  for (const store of [undefined, 3])
    it(`equals a count over the 200 raw answers${store ? ` of store ${store}` : ''}, with the change against the period before`, async () => {
      const mine = answers.filter((a) => store === undefined || a.store === store);
      const now = expected(mine, from, to);
      const before = expected(mine, previous.from, previous.to);
      const response = await report(store ? { store: String(store) } : {});
      expect(response.status, response.text).toBe(200);
      expect(response.body.previous).toEqual(previous);
      const rows = Object.fromEntries(response.body.data.map((row: { theme: string }) => [row.theme, row]));
      expect(Object.keys(rows).sort()).toEqual([...now.keys()].sort());
      for (const [theme, counts] of now) {
        const earlier = before.get(theme);
        expect(rows[theme], theme).toEqual({
          theme,
          name: DEFAULT_THEMES.find((t) => t.slug === theme)!.name['pt-BR'],
          ...counts,
          // Mentions by their own polarity (test/integration/comment-analysis.test.ts counts them): at most the comments.
          negative: expect.any(Number),
          positive: expect.any(Number),
          score: nps(counts),
          change: earlier ? Math.round((nps(counts) - nps(earlier)) * 10) / 10 : null,
          // The mentions' changes against the period before (test/unit/theme-report.test.ts checks their intervals).
          previous_negative: expect.any(Number),
          negative_change: expect.objectContaining({ value: expect.any(Number), significant: expect.any(Boolean) }),
          positive_change: expect.objectContaining({ value: expect.any(Number), significant: expect.any(Boolean) }),
        });
        expect(rows[theme].negative_change.value, theme).toBe(rows[theme].negative - rows[theme].previous_negative);
      }
      // Sorted by negative mentions, most first; then by how much each drags the score down: net detractors first.
      const data = response.body.data as { comments: number; negative: number; positive: number; detractors: number; promoters: number }[];
      for (const row of data) expect(Math.max(row.negative, row.positive)).toBeLessThanOrEqual(row.comments);
      const order = data.map((row) => [row.negative, row.detractors - row.promoters] as const);
      expect(order).toEqual([...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]));
    });

  it('refuses an employee, naming it', async () => {
    const employee = await report({ employee: '1' });
    expect(employee.status).toBe(422);
    expect(employee.body.errors).toEqual([{ path: 'employee', message: 'is not taken with group_by=theme' }]);
  });
});
