import { GetCommand, PutCommand, QueryCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { handler as commentAnalyser } from '../../functions/queue/comment-analyser.js';
import { invoke } from '../../infra/local/invoke.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import { DEFAULT_THEMES } from '../../shared/themes/themes.js';
import { addDays } from '../../shared/dates.js';
import { commentReanalysis } from '../../shared/adapters/wiring/themes.js';
import { dataSubjects } from '../../shared/adapters/privacy-repository.js';
import { erase } from '../../shared/privacy/service.js';
import { inProcess } from '../support/api.js';
import { sqsEvent, usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * Comment analysis against the emulators: an answer's message on the analysis queue (a private one, read here), its
 * consumer invoked under its own role with real SQS batches, the real Comprehend SDK client calling the local
 * endpoint, which records what it received; the analysis and the theme counters read back from the table.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('events');
const analysisQueue = usePrivateQueue('analysis');
const api = inProcess('public');
const chatbot = inProcess('chatbot');
const comprehendUrl = inject('comprehendUrl');
let tenant: TestTenant;

const answer = (id: number, score: number, comment: string, method: 'POST' | 'PUT' = 'POST') =>
  chatbot({
    method,
    path: '/survey',
    key: tenant.chatbotKey,
    body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [], comment },
  });

/** Runs every message the analysis queue holds through its consumer, `times` times (a redelivery after the first). */
async function consumeAnalyses(times = 1): Promise<unknown[]> {
  const messages = await analysisQueue.drain();
  for (let i = 0; i < times; i++) {
    const response = await invoke('commentAnalyser', commentAnalyser, sqsEvent(messages, { queue: 'AnalysisQueue', receiveCount: i + 1 }));
    expect(response.batchItemFailures).toEqual([]);
  }
  return messages;
}

async function answered(score: number, comment: string, store = 1): Promise<number> {
  const id = await registerSale(api, tenant.key, { store_id: store, phone: '11987654321' });
  expect((await answer(id, score, comment)).status).toBe(201);
  return id;
}

const analysisOf = async (id: number) => {
  const { client, tableName } = db();
  const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.transaction(tenant.tenantId, id) }));
  return Item?.analysis as { sentiment: string; themes: string[]; language: string; key_phrases: string[] } | undefined;
};

/** The day counters of a store in the theme counters' month partition: { theme: counts }. */
const storeCounters = async (store: number, day: string) => {
  const { client, tableName } = db();
  const { Items = [] } = await client.send(
    new QueryCommand({
      TableName: tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
      ExpressionAttributeValues: { ':pk': keys.themes(tenant.tenantId, day.slice(0, 7)), ':sk': `store#${store}#D#${day}#` },
    }),
  );
  return Object.fromEntries(
    Items.map((item) => [
      String(item.sk).split('#').pop(),
      {
        comments: item.comments as number,
        detractor: item.detractor as number | undefined,
        negative: item.negative as number | undefined,
        positive: item.positive as number | undefined,
      },
    ]),
  ) as Record<string, { comments: number; detractor?: number; negative?: number; positive?: number }>;
};

const received = async () =>
  (await (await fetch(`${comprehendUrl}/requests`)).json()) as { operation: string; input: { Text?: string; TextList?: string[] } }[];

beforeAll(async () => {
  tenant = await newTenant();
});

describe('the analysis of a comment', () => {
  it('finds the themes and sentiment of the three example comments, in pt-BR, es and en', async () => {
    const examples = [
      { comment: 'A fila estava enorme, esperei 40 minutos no caixa', theme: 'wait', sentiment: 'negative', language: 'pt' },
      { comment: 'El personal fue muy amable', theme: 'staff', sentiment: 'positive', language: 'es' },
      { comment: 'Prices are too high for what you get', theme: 'price', sentiment: 'negative', language: 'en' },
    ];
    const ids = [];
    for (const example of examples) ids.push(await answered(2, example.comment));
    expect(await consumeAnalyses()).toHaveLength(3);
    for (const [i, example] of examples.entries()) {
      const analysis = await analysisOf(ids[i]!);
      expect(analysis?.themes).toContain(example.theme);
      expect(analysis?.sentiment).toBe(example.sentiment);
      expect(analysis?.language).toBe(example.language);
    }
  });

  it('gives each mention its own polarity, counts mentions by polarity and lists answers by them', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const aspectCells = async () => {
      const { client, tableName } = db();
      const { Items = [] } = await client.send(
        new QueryCommand({
          TableName: tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :sk)',
          ExpressionAttributeValues: { ':pk': keys.themes(tenant.tenantId, day.slice(0, 7)), ':sk': `store#1#D#${day}#` },
        }),
      );
      return Object.fromEntries(
        Items.map((item) => [
          String(item.sk).split('#').pop(),
          { negative: item.aspect_negative ?? 0, positive: item.aspect_positive ?? 0 },
        ]),
      );
    };
    const before = await aspectCells();
    const id = await answered(6, 'Chegou antes do prazo, mas veio quebrado');
    await consumeAnalyses(2);
    const analysis = (await analysisOf(id)) as unknown as { aspects: unknown };
    expect(analysis.aspects).toEqual([
      { theme: 'product', sentiment: 'negative' },
      { theme: 'delivery', sentiment: 'positive' },
    ]);
    const after = await aspectCells();
    const moved = (theme: string) => ({
      negative: (after[theme]?.negative ?? 0) - (before[theme]?.negative ?? 0),
      positive: (after[theme]?.positive ?? 0) - (before[theme]?.positive ?? 0),
    });
    expect([moved('product'), moved('delivery')]).toEqual([
      { negative: 1, positive: 0 },
      { negative: 0, positive: 1 },
    ]);

    const listed = async (aspect: string) => {
      const response = await api({
        path: '/public/answers',
        key: tenant.key,
        query: { aspect },
        headers: { 'x-service-user-token': tenant.userToken },
      });
      expect(response.status).toBe(200);
      return (response.body as { data: { id: number; aspects: unknown }[] }).data;
    };
    const shown = (await listed('delivery:positive')).find((a) => a.id === id);
    expect(shown?.aspects).toEqual(analysis.aspects);
    expect((await listed('delivery:negative')).map((a) => a.id)).not.toContain(id);
    expect((await listed('product:negative')).map((a) => a.id)).toContain(id);
    const refused = await api({
      path: '/public/answers',
      key: tenant.key,
      query: { aspect: 'delivery:angry' },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(refused.status).toBe(422);
  });

  it('counts a redelivered message once, and a correction moves the counts', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const before = await storeCounters(1, day);
    /** How each theme's counters of store 1 moved since `before`. */
    const moved = async () => {
      const now = await storeCounters(1, day);
      return Object.fromEntries(
        Object.entries(now)
          .map(([theme, counts]) => [
            theme,
            Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, (n ?? 0) - (before[theme]?.[name as 'comments'] ?? 0)])),
          ])
          .filter(([, counts]) => Object.values(counts as object).some((n) => n !== 0)),
      );
    };
    const id = await answered(3, 'O banheiro estava sujo');
    await consumeAnalyses(2);
    expect(await moved()).toEqual({ cleanliness: { comments: 1, detractor: 1, negative: 1, positive: 0 } });

    expect((await answer(id, 10, 'Preço ótimo, atendente muito educada', 'PUT')).status).toBe(200);
    await consumeAnalyses(2);
    expect(await moved()).toEqual({
      price: { comments: 1, detractor: 0, negative: 0, positive: 1 },
      staff: { comments: 1, detractor: 0, negative: 0, positive: 1 },
    });
    expect((await analysisOf(id))?.themes).toEqual(['staff', 'price']);
  });

  it('removes the analysis with the comment when the customer is erased, and keeps the counts', async () => {
    const day = new Date().toISOString().slice(0, 10);
    const clientId = `E-${tenant.tenantId}-analysis`;
    const id = await registerSale(api, tenant.key, { customer_integration: clientId, name: 'Titular Apagado', phone: '11987650000' });
    expect((await answer(id, 1, 'Entrega atrasou de novo')).status).toBe(201);
    await consumeAnalyses();
    expect(await analysisOf(id)).toMatchObject({ themes: ['delivery'], sentiment: 'negative' });
    const counted = await storeCounters(1, day);

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

    const analysis = await analysisOf(id);
    expect(analysis).toEqual({ counted: expect.objectContaining({ themes: ['delivery'] }) });
    expect(await storeCounters(1, day)).toEqual(counted);
  });

  it('sends Comprehend no CPF, phone, e-mail or card number, in any of the three languages', async () => {
    const comments = [
      'Péssimo! Meu CPF é 123.456.789-09, liguem no (11) 91234-5678 ou ana.souza@exemplo.com.br',
      'Me cobraron dos veces en la tarjeta 5500-0000-0000-0004, llamen al +34 612 345 678 o juan@correo.es',
      'Charged twice on card 4111 1111 1111 1111, call me at +1 415-555-0100 or john.doe@example.com',
    ];
    for (const comment of comments) await answered(1, comment);
    await consumeAnalyses();
    const sent = JSON.stringify(await received());
    for (const secret of [
      '123.456.789-09',
      '91234-5678',
      'ana.souza',
      '5500-0000-0000-0004',
      '612 345 678',
      'juan@',
      '4111 1111',
      '555-0100',
      'john.doe',
    ])
      expect(sent).not.toContain(secret);
    expect(sent).toContain('Meu CPF é [cpf], liguem no [phone] ou [email]');
  });
});

describe("Comprehend's calls", () => {
  /** A word of letters only (no redaction takes it) that names this tenant's comments among everything the endpoint received. */
  const marker = (mode: string) => `xq${String(tenant.tenantId).replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)}${mode}`;
  const operationsFor = async (word: string) =>
    (await received()).filter((request) => JSON.stringify(request.input).includes(word)).map((request) => request.operation);
  const putCommentAnalysis = async (comprehendSentiment: boolean) => {
    const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
    const put = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...read.body, commentAnalysis: { comprehendSentiment } },
      headers: { 'if-match': read.headers.etag! },
    });
    expect(put.status, put.text).toBe(200);
    return (await api({ path: '/public/admin/config', key: tenant.adminKey })).body.commentAnalysis;
  };

  it("asks Comprehend for the sentiment alone, once a comment; nothing once the tenant turns Comprehend's sentiment off", async () => {
    // Prepare: a long comment and a short one in each mode, each naming its mode.
    const comments = (word: string) => [
      `A entrega atrasou duas semanas e o produto veio quebrado, não recomendo esta loja ${word}`,
      `El personal fue muy amable ${word}`,
    ];
    const on = marker('on');
    const off = marker('off');
    const onIds = [];
    for (const comment of comments(on)) onIds.push(await answered(2, comment));
    await consumeAnalyses();
    // One sentiment call a comment (no language, no key phrases: three calls before issue 59).
    expect(await operationsFor(on)).toEqual(['BatchDetectSentiment', 'BatchDetectSentiment']);

    // Act: the switch off through the configuration API, then two more comments.
    expect(await putCommentAnalysis(false)).toEqual({ comprehendSentiment: false });
    const offIds = [];
    try {
      for (const comment of comments(off)) offIds.push(await answered(2, comment));
      await consumeAnalyses();
    } finally {
      expect(await putCommentAnalysis(true)).toEqual({ comprehendSentiment: true });
    }

    // Assess: none with it off.
    expect(await operationsFor(off)).toEqual([]);
    // Either way the comment is read in its language, its themes and key phrases found, its sentiment given.
    for (const ids of [onIds, offIds]) {
      const [long, short] = [await analysisOf(ids[0]!), await analysisOf(ids[1]!)];
      expect(long).toMatchObject({ language: 'pt', sentiment: 'negative', themes: ['product', 'delivery'] });
      expect(long?.key_phrases).toContain('entrega');
      expect(short).toMatchObject({ language: 'es', sentiment: 'positive', themes: ['staff'] });
    }
  });
});

describe('a comment over what Comprehend reads', () => {
  it("is analysed on its start, cut at Comprehend's 5,000 bytes on a character boundary", async () => {
    // 2,000 characters of Chinese: 6,000 bytes (cut at 4,998: the next character's 3 bytes would cross the limit); then
    // 5,000 bytes exactly before an emoji (a surrogate pair, 4 bytes in UTF-8).
    const long = '服务很慢'.repeat(500);
    const across = `ab${'服务很慢'.repeat(416)}服务😡${'服务很慢'.repeat(50)}`;
    const ids = [await answered(1, long), await answered(1, across)];
    await fetch(`${comprehendUrl}/clear`, { method: 'POST' });

    await consumeAnalyses();

    for (const id of ids) expect(await analysisOf(id)).toMatchObject({ sentiment: expect.any(String), language: expect.any(String) });
    // The local Comprehend answers the stack's own analyser too (other files' comments): this test's are its own texts.
    const texts = (await received())
      .flatMap((request) => request.input.TextList ?? [request.input.Text ?? ''])
      .filter((text) => text.includes('服务'));
    // One sentiment call a comment (its language and key phrases are the service's own).
    expect(texts.length).toBeGreaterThanOrEqual(2);
    for (const text of texts) {
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(5000);
      expect(text.isWellFormed()).toBe(true);
    }
    expect(new Set(texts)).toEqual(new Set([`${'服务很慢'.repeat(416)}服务`, `ab${'服务很慢'.repeat(416)}服务`]));
  });
});

describe("the tenant's themes, and reanalyse", () => {
  const CONFIG = '/public/admin/config';
  const theme = (slug: string, keyword: string) => ({
    slug,
    name: { 'pt-BR': slug, es: slug, en: slug },
    keywords: { 'pt-BR': [keyword], es: [], en: [] },
  });
  const setThemes = async (themes: unknown[]) => {
    const read = await api({ path: CONFIG, key: tenant.adminKey });
    const put = await api({
      method: 'PUT',
      path: CONFIG,
      key: tenant.adminKey,
      body: { ...read.body, themes },
      headers: { 'if-match': read.headers.etag! },
    });
    expect(put.status, put.text).toBe(200);
  };
  const lines: string[] = [];
  const reanalyse = (from: string, to: string) => commentReanalysis(tenant.tenantId, { from, to }, (line) => lines.push(line));

  it('analyses with the themes configured; reanalyse moves the counts to new themes, once however often it runs, and continues where it stopped', async () => {
    // Prepare: a comment analysed with theme A.
    const day = new Date().toISOString().slice(0, 10);
    const tomorrow = addDays(day, 1);
    await setThemes([theme('fila-a', 'estacionamento')]);
    const id = await answered(2, 'A fila no estacionamento estava enorme');
    await consumeAnalyses();
    expect((await analysisOf(id))?.themes).toEqual(['fila-a']);
    const counts = async () => {
      const cells = await storeCounters(1, day);
      return Object.fromEntries(['fila-a', 'espera-b', 'demora-c'].map((slug) => [slug, cells[slug]?.comments ?? 0]));
    };
    expect(await counts()).toEqual({ 'fila-a': 1, 'espera-b': 0, 'demora-c': 0 });

    // Act: the themes changed, then reanalyse twice.
    await setThemes([theme('espera-b', 'estacionamento')]);
    const first = await reanalyse(day, day);
    const afterFirst = await counts();
    const second = await reanalyse(day, day);

    // Assess: counted under B once.
    expect(afterFirst).toEqual({ 'fila-a': 0, 'espera-b': 1, 'demora-c': 0 });
    expect(await counts()).toEqual(afterFirst);
    expect((await analysisOf(id))?.themes).toEqual(['espera-b']);
    expect(first.moved).toBeGreaterThanOrEqual(1);
    expect(second.moved).toBe(0);
    expect(lines).toContain(`reanalysing ${day} to ${day}`);

    // A run stopped after today's pages (its checkpoint at tomorrow) continues there: today is not read again.
    await setThemes([theme('demora-c', 'estacionamento')]);
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.reanalysis(tenant.tenantId),
          from: day,
          to: tomorrow,
          day: tomorrow,
          pending: [{ partition: 0, cursor: null }],
          moved: 0,
          read: 0,
        },
      }),
    );
    const resumed = await reanalyse(day, tomorrow);
    expect(lines).toContain(`continuing at ${tomorrow} (0 answers read, 0 moved)`);
    expect(resumed.moved).toBe(0);
    expect(await counts()).toEqual(afterFirst);
    // Finished, the checkpoint is gone: the next run reads the whole period.
    await reanalyse(day, tomorrow);
    expect(await counts()).toEqual({ 'fila-a': 0, 'espera-b': 0, 'demora-c': 1 });
  });
});

describe('GET /public/themes/suggestions', () => {
  const suggestions = (query: Record<string, string>, token = tenant.userToken) =>
    api({ path: '/public/themes/suggestions', key: tenant.key, query, headers: { 'x-service-user-token': token } });

  it('lists the frequent phrases of comments with no theme, complaints first; a theme covering one takes it off', async () => {
    // Prepare: two comments with no theme name the lift; a third does too, but it is about the queue, a theme (the
    // default themes', which an earlier test of this tenant replaced).
    const day = new Date().toISOString().slice(0, 10);
    const current = await api({ path: '/public/admin/config', key: tenant.adminKey });
    const defaults = await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...current.body, themes: DEFAULT_THEMES },
      headers: { 'if-match': current.headers.etag! },
    });
    expect(defaults.status, defaults.text).toBe(200);
    const ids = [await answered(3, 'O elevador parado de novo'), await answered(4, 'Elevador parado, subi de escada')];
    await answered(2, 'A fila enorme na porta do elevador');
    await consumeAnalyses(3);

    // Act
    const listed = await suggestions({ from: day, to: day });
    const byJourney = await suggestions({ from: day, to: day, journey: 'loja' });
    const otherStore = await suggestions({ from: day, to: day, store: '2' }, tenant.limitedToken);
    const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
    const themes = [
      ...read.body.themes,
      { slug: 'elevador', name: { 'pt-BR': 'Elevador', es: 'Ascensor', en: 'Lift' }, keywords: { 'pt-BR': ['elevador'] } },
    ];
    await api({
      method: 'PUT',
      path: '/public/admin/config',
      key: tenant.adminKey,
      body: { ...read.body, themes },
      headers: { 'if-match': read.headers.etag! },
    });
    const after = await suggestions({ from: day, to: day });

    // Assess: counted once each, whatever the redelivery.
    expect(listed.status, listed.text).toBe(200);
    const lift = listed.body.find((s: { phrase: string }) => s.phrase.includes('elevador'));
    // The two comments with no theme, both from detractors; the queue's comment suggests nothing.
    expect(lift).toMatchObject({ count: 2, negative: 2 });
    // Examples fill slots by answer id (PHRASE_EXAMPLES): two answers may share one.
    expect(lift.examples.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(lift.examples));
    expect(byJourney.body).toEqual(listed.body);
    expect(otherStore.status).toBe(404);
    expect(after.body.filter((s: { phrase: string }) => s.phrase.includes('elevador'))).toEqual([]);
  });
});

describe('erasing a customer whose comment was counted in the suggestions', () => {
  const suggestions = async (day: string) => {
    const listed = await api({
      path: '/public/themes/suggestions',
      key: tenant.key,
      query: { from: day, to: day },
      headers: { 'x-service-user-token': tenant.userToken },
    });
    expect(listed.status, listed.text).toBe(200);
    return listed.body as { phrase: string; count: number; examples: number[] }[];
  };
  /** Every item of the tenant (a Scan: the test's own look at the whole table, never a request path's). */
  const everyItem = async () => {
    const items: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page: ScanCommandOutput = await db().client.send(
        new ScanCommand({
          TableName: db().tableName,
          FilterExpression: 'begins_with(pk, :tenant)',
          ExpressionAttributeValues: { ':tenant': `T#${tenant.tenantId}#` },
          ExclusiveStartKey: start,
        }),
      );
      items.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    return items;
  };

  it('takes back every phrase, count and example of the comment, and keeps the others', async () => {
    // Prepare: the subject's comment names them; another customer's shares a phrase with it.
    const day = new Date().toISOString().slice(0, 10);
    const clientId = `E-${tenant.tenantId}-phrases`;
    const erased = await registerSale(api, tenant.key, { customer_integration: clientId, name: 'Maria Zulmirenta', phone: '11987650001' });
    expect((await answer(erased, 1, 'Maria Zulmirenta aqui, meu email maria.z@exemplo.com. Cadeira bamba na entrada')).status).toBe(201);
    const other = await answered(2, 'Cadeira bamba no provador');
    await consumeAnalyses();
    const before = await suggestions(day);
    // A phrase of one answer (the subject's name) is counted but never suggested; the shared one is.
    expect(before).toEqual(expect.arrayContaining([expect.objectContaining({ phrase: 'cadeira bamba', count: 2 })]));
    expect(before.filter((s) => s.phrase.includes('zulmirenta'))).toEqual([]);
    expect(JSON.stringify(await everyItem())).toMatch(/zulmirenta/);

    // Act
    const request = await api({
      method: 'POST',
      path: '/public/privacy/requests',
      key: tenant.key,
      headers: { 'x-service-user-token': tenant.userToken },
      body: { type: 'erase', client_id: clientId },
    });
    expect(request.status, request.text).toBe(202);
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.transaction(tenant.tenantId, erased) }));
    await erase(dataSubjects, tenant.tenantId, {
      customerId: Item!.customer_id as number,
      mark: {
        requestId: request.body.id as string,
        at: new Date().toISOString(),
      },
    });

    // Assess: the suggestions no longer show the subject's words; the shared phrase counts the other answer alone.
    const after = await suggestions(day);
    expect(after.filter((s) => s.phrase.includes('zulmirenta'))).toEqual([]);
    // The shared phrase counts the other answer alone: said in one answer now, no longer suggested.
    expect(after.filter((s) => s.phrase === 'cadeira bamba')).toEqual([]);
    // Every item of the tenant: no word of the comment, no cell counting it, no example naming it.
    const items = await everyItem();
    expect(JSON.stringify(items)).not.toMatch(/zulmir|maria/i);
    const cells = items.filter((item) => item.entity === 'PHRASE_COUNT' || String(item.pk).includes('#PHRASES#'));
    expect(cells.length).toBeGreaterThan(0);
    for (const cell of cells) expect([cell.example0, cell.example1, cell.example2]).not.toContain(erased);
    const bamba = cells.filter((cell) => cell.phrase === 'cadeira bamba');
    expect(bamba.map((cell) => cell.count)).toEqual([1, 1, 1, 1, 1, 1]);
    // Both comments were complaints (scores 1 and 2): the other's remains in `negative`, the subject's taken back.
    expect(bamba.map((cell) => cell.negative)).toEqual([1, 1, 1, 1, 1, 1]);
    expect(bamba.every((cell) => [cell.example0, cell.example1, cell.example2].filter(Boolean).every((id) => id === other))).toBe(true);
    expect(
      items.find(
        (item) => item.pk === keys.transaction(tenant.tenantId, erased).pk && item.sk === keys.transaction(tenant.tenantId, erased).sk,
      )?.analysis,
    ).toEqual({
      counted: expect.objectContaining({ themes: expect.any(Array) }),
    });
  });
});
