import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { db } from '../../shared/adapters/dynamodb.js';
import { stripPersonalCopies } from '../../shared/adapters/personal-copies.js';
import { indexAnswers, MAX_STORE_PARTITIONS } from '../../shared/adapters/answer-repository.js';
import { tenantService } from '../../shared/adapters/wiring/tenants.js';
import { keys } from '../../shared/keys.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * GET /public/answers over sales registered with their rating (journey loja: NPS, classes 1 and 2; ecommerce:
 * csat), in stores 1 and 2: filters, CSV, a user's stores, paging, the access log, corrections and erasure.
 */
usePrivateQueue('surveyDispatch');
// Comments wait here unanalysed: an answer's sentiment and themes are null before the analysis (theme-answers.test.ts).
usePrivateQueue('analysis');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
let tenant: TestTenant;

interface Sale {
  id: number;
  store: number;
  journey: string;
  score: number;
  comment?: string;
}
const sales: Sale[] = [];

const answers = (query: Record<string, string | number> = {}, token = tenant.userToken, headers: Record<string, string> = {}) =>
  api({ path: '/public/answers', key: tenant.key, query, headers: { 'x-service-user-token': token, ...headers } });

const ids = (body: { data?: { id: number }[] }) => {
  expect(body.data, JSON.stringify(body)).toBeDefined();
  return body.data!.map((a) => a.id);
};
/** The sales, newest first (each was registered after the one before it). */
const newestFirst = (list: Sale[]) => [...list].reverse().map((s) => s.id);

/** The rows of a CSV answer (RFC 4180 quoting), without its BOM. */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  const body = text.slice(1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (quoted && c === '"' && body[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (!quoted && c === ',') {
      row.push(cell);
      cell = '';
    } else if (!quoted && c === '\r' && body[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

beforeAll(async () => {
  tenant = await newTenant();
  const store = await api({ method: 'POST', path: '/public/store', key: tenant.key, body: { trade_name: 'Loja Dois' } });
  expect(store.body.id).toBe(2);
  const plan: Omit<Sale, 'id'>[] = [
    { store: 1, journey: 'loja', score: 3, comment: 'Demorou muito' },
    { store: 1, journey: 'loja', score: 5 },
    { store: 1, journey: 'loja', score: 9, comment: 'Ótimo' },
    { store: 2, journey: 'loja', score: 2, comment: '=HYPERLINK("http://evil.example","clique")' },
    { store: 2, journey: 'loja', score: 8, comment: 'Bom, "mas" caro' },
    { store: 1, journey: 'ecommerce', score: 1, comment: 'Não chegou' },
    { store: 2, journey: 'loja', score: 6, comment: 'Fila' },
  ];
  for (const sale of plan) {
    const id = await registerSale(api, tenant.key, {
      store_id: sale.store,
      journey: sale.journey,
      score: sale.score,
      ...(sale.comment ? { comment: sale.comment } : {}),
      ...(sale.journey === 'loja' ? { rating_items: [{ class_id: 1, score: sale.score > 6 ? 5 : 2 }] } : {}),
    });
    sales.push({ ...sale, id });
    // Answers a millisecond apart at least, so that newest first is the order they were registered in.
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
});

describe('GET /public/answers', () => {
  it('lists every answer newest first with its score, bucket, comment, class scores, store, journey and channel', async () => {
    const res = await answers();
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst(sales));
    const first = res.body.data.find((a: { id: number }) => a.id === sales[0]!.id);
    expect(first).toEqual({
      id: sales[0]!.id,
      transaction_id: null,
      answered_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
      journey: { id: 1, slug: 'loja', indicator: 'nps' },
      store: 1,
      employee: 1,
      customer: { id: expect.any(Number), name: 'Bia Lima' },
      channel: 'api',
      score: 3,
      bucket: 'detractor',
      comment: 'Demorou muito',
      classes: [{ class_id: 1, label: 'Atendimento', score: 2 }],
      sentiment: null,
      themes: null,
      aspects: null,
    });
    expect(res.body.data.find((a: { id: number }) => a.id === sales[5]!.id)).toMatchObject({
      bucket: 'low',
      journey: { slug: 'ecommerce' },
    });
    expect(res.body.next_cursor).toBeNull();
  });

  it('returns only detractors with comments for bucket=detractor&has_comment=true, and the same rows as CSV', async () => {
    const wanted = sales.filter((s) => s.journey === 'loja' && s.score <= 6 && s.comment);
    const res = await answers({ bucket: 'detractor', has_comment: 'true' });
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst(wanted));
    for (const a of res.body.data) expect(a).toMatchObject({ bucket: 'detractor', comment: expect.any(String) });

    const csv = await answers({ bucket: 'detractor', has_comment: 'true' }, tenant.userToken, { accept: 'text/csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = parseCsv(csv.text);
    expect(header!.slice(0, 12)).toEqual([
      'id',
      'transaction_id',
      'answered_at',
      'journey',
      'store',
      'employee',
      'customer',
      'customer_name',
      'channel',
      'score',
      'bucket',
      'comment',
    ]);
    expect(header).toContain('class 1 Atendimento');
    expect(rows.map((row) => Number(row[0]))).toEqual(ids(res.body));
    expect(rows.map((row) => row[11])).toEqual(
      res.body.data.map((a: { comment: string }) => (a.comment.startsWith('=') ? `'${a.comment}` : a.comment)),
    );
  });

  it('neutralises a comment that a spreadsheet would run as a formula, and quotes commas and quotes', async () => {
    const csv = await answers({ store: 2 }, tenant.userToken, { accept: 'text/csv' });
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil.example"",""clique"")"`);
    expect(csv.text).toContain('"Bom, ""mas"" caro"');
    expect(csv.text).not.toMatch(/(^|,)=HYPERLINK/m);
  });

  it('filters by journey, store, bucket of a non-NPS scale, class and answers without comment', async () => {
    expect(ids((await answers({ journey: 'ecommerce' })).body)).toEqual([sales[5]!.id]);
    expect(ids((await answers({ store: 2 })).body)).toEqual(newestFirst(sales.filter((s) => s.store === 2)));
    expect(ids((await answers({ bucket: 'low' })).body)).toEqual([sales[5]!.id]);
    expect(ids((await answers({ bucket: 'promoter' })).body)).toEqual([sales[2]!.id]);
    expect(ids((await answers({ has_comment: 'false' })).body)).toEqual([sales[1]!.id]);
    // Class 1 was scored on every loja answer, class 2 on none.
    expect(ids((await answers({ class: 1 })).body)).toEqual(newestFirst(sales.filter((s) => s.journey === 'loja')));
    expect(ids((await answers({ class: 2 })).body)).toEqual([]);
    expect(ids((await answers({ employee: 2 })).body)).toEqual([]);
  });

  it("shows a user limited to store 1 only store 1's answers, and store 2 as not found", async () => {
    const res = await answers({}, tenant.limitedToken);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst(sales.filter((s) => s.store === 1)));
    expect((await answers({ store: 2 }, tenant.limitedToken)).status).toBe(404);
    const csv = await answers({ bucket: 'detractor' }, tenant.limitedToken, { accept: 'text/csv' });
    expect(csv.text).not.toContain('HYPERLINK');
    expect(csv.text).not.toContain('Fila');
  });

  it('shows a user of more stores than it reads one by one only its stores, through the shards', async () => {
    const stores = [2, ...Array.from({ length: MAX_STORE_PARTITIONS }, (_, i) => 100 + i)];
    const { token } = await tenantService.createUser(tenant.tenantId, { name: 'regional', scope: { stores, groups: [] } });
    const res = await answers({}, token);
    expect(res.status, res.text).toBe(200);
    expect(ids(res.body)).toEqual(newestFirst(sales.filter((s) => s.store === 2)));
  });

  it('pages newest first by cursor, with the next page in the Link header, each answer once', async () => {
    for (const [query, token] of [
      [{}, tenant.userToken],
      [{ has_comment: 'true' }, tenant.userToken],
      [{}, tenant.limitedToken],
    ] as const) {
      const all = ids((await answers(query, token)).body);
      const seen: number[] = [];
      let cursor: string | null = null;
      for (let pages = 0; pages < 20; pages++) {
        const res = await answers({ ...query, limit: 2, ...(cursor ? { cursor } : {}) }, token);
        expect(res.status, res.text).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        seen.push(...ids(res.body));
        cursor = res.body.next_cursor;
        if (!cursor) {
          expect(res.headers.link).toBeUndefined();
          break;
        }
        const link = new URLSearchParams(/^<\?([^>]*)>; rel="next"$/.exec(res.headers.link!)![1]);
        expect(link.get('cursor')).toBe(cursor);
        expect(link.get('limit')).toBe('2');
        expect(link.get('token')).toBeNull();
      }
      expect(seen).toEqual(all);
    }
  });

  it('records the read of each customer shown by name or comment in the access log', async () => {
    const res = await answers({ store: 1, journey: 'ecommerce' });
    const customer = res.body.data[0].customer.id as number;
    const log = await api({
      path: '/public/privacy/access',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      query: { customer },
    });
    expect(log.body.data).toContainEqual(
      expect.objectContaining({ operation: 'listAnswers', user: expect.any(String), request_id: expect.any(String) }),
    );
  });

  it('refuses an unknown journey or class, a bucket not of the journey, a period over 400 days and a forged cursor', async () => {
    for (const [query, path] of [
      [{ journey: 'nenhuma' }, 'journey'],
      [{ class: 99 }, 'class'],
      [{ journey: 'ecommerce', bucket: 'detractor' }, 'bucket'],
      [{ from: '2024-01-01', to: '2026-01-01' }, 'to'],
      [{ from: '2026-02-01', to: '2026-01-01' }, 'to'],
      [{ bucket: 'awful' }, 'bucket'],
      [{ cursor: 'x'.repeat(40) }, 'cursor'],
    ] as const) {
      const res = await answers(query);
      expect(res.status, JSON.stringify(query)).toBe(422);
      expect(res.body.errors.map((e: { path: string }) => e.path)).toContain(path);
    }
    // A cursor of another filter is refused too.
    const page = await answers({ limit: 1 });
    expect((await answers({ limit: 1, store: 1, cursor: page.body.next_cursor })).status).toBe(422);
    expect((await answers({}, 'not-a-token')).status).toBe(401);
  });

  it('lists a survey answered through the chatbot once, however often it is sent, and shows its correction in place', async () => {
    const id = await registerSale(api, tenant.key, { store_id: 2 });
    const survey = (method: 'POST' | 'PUT', score: number, comment: string) =>
      chatbot({
        method,
        path: '/survey',
        key: tenant.chatbotKey,
        body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [], comment },
      });
    expect((await survey('POST', 4, 'Atendente sumiu')).status).toBe(201);
    expect((await survey('POST', 4, 'Atendente sumiu')).status).toBe(409);
    const listed = async () => (await answers({ store: 2 })).body.data.filter((a: { id: number }) => a.id === id);
    expect(await listed()).toEqual([
      expect.objectContaining({ score: 4, bucket: 'detractor', comment: 'Atendente sumiu', channel: 'chatbot' }),
    ]);
    expect((await survey('PUT', 10, 'Resolveram')).status).toBe(200);
    expect(await listed()).toEqual([expect.objectContaining({ score: 10, bucket: 'promoter', comment: 'Resolveram' })]);
    // Still the newest of its store: a correction keeps the first answer's time.
    expect(ids((await answers({ store: 2, limit: 1 })).body)).toEqual([id]);
  });

  it('stops showing the comment and name once erasure or retention strips the transaction', async () => {
    const target = sales[2]!;
    const { Item } = await db().client.send(
      new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, target.id) }),
    );
    expect(await stripPersonalCopies(Item!, { erased_at: new Date().toISOString() }, { asRead: true })).toBe(true);
    const listed = (await answers()).body.data.find((a: { id: number }) => a.id === target.id);
    expect(listed).toMatchObject({ score: 9, comment: null, customer: { name: null } });
    expect((await answers({ has_comment: 'true' })).body.data.map((a: { id: number }) => a.id)).not.toContain(target.id);
  });

  it('lists, once indexed by the admin command, an answer stored before the answer indexes existed', async () => {
    const id = await registerSale(api, tenant.key, { store_id: 1, score: 0, comment: 'Antiga' });
    // As an answer written before gsi10 and gsi11: without their attributes.
    await db().client.send(
      new UpdateCommand({
        TableName: db().tableName,
        Key: keys.transaction(tenant.tenantId, id),
        UpdateExpression: 'REMOVE gsi10pk, gsi10sk, gsi11pk, gsi11sk',
      }),
    );
    expect(ids((await answers({ store: 1 })).body)).not.toContain(id);
    const month = new Date().toISOString().slice(0, 7);
    expect(await indexAnswers(tenant.tenantId, [month])).toBe(1);
    expect((await answers({ store: 1, limit: 1 })).body.data).toEqual([expect.objectContaining({ id, comment: 'Antiga' })]);
    expect(ids((await answers({ has_comment: 'true', bucket: 'detractor' })).body)).toContain(id);
    // Run again: nothing left to index.
    expect(await indexAnswers(tenant.tenantId, [month])).toBe(0);
  });
});
