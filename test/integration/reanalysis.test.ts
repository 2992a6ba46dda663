import { beforeAll, describe, expect, it } from 'vitest';
import { commentAnalyser, commentReanalysis } from '../../shared/adapters/wiring/themes.js';
import { DEFAULT_THEMES, type Theme } from '../../shared/themes/themes.js';
import { inProcess } from '../support/api.js';
import { usePrivateQueue } from '../support/queues.js';
import { registerSale } from '../support/sales.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * `npm run admin -- reanalyse` on a tenant whose comments were analysed with other themes (issue 59 §7): what the API
 * then reports (GET /public/results?group_by=theme, the answers by each theme's polarity, the suggestions) is what one
 * analysis with the new themes gives another tenant with the same comments, however often it runs, and with two runs
 * at once. Against DynamoDB Local and the local Comprehend; the analyses run through the analyser's service directly.
 */
usePrivateQueue('surveyDispatch');
usePrivateQueue('cases');
usePrivateQueue('events');
const analysisQueue = usePrivateQueue('analysis');
const api = inProcess('public');
const chatbot = inProcess('chatbot');

/** Comments of at least 8 words (so each is read in the language found, whatever the themes), with their scores. */
const COMMENTS: [number, string][] = [
  [2, 'A cadeira bamba no provador quase me derrubou hoje cedo'],
  [3, 'Tinha uma cadeira bamba perto do provador da loja'],
  [1, 'O elevador parado de novo, subi de escada com as compras'],
  [2, 'Elevador parado e uma fila enorme na entrada da loja'],
  [9, 'Atendente muito educada e o preço estava ótimo, recomendo a todos'],
  [4, 'Chegou antes do prazo, mas o produto veio todo quebrado'],
];

/** The defaults, and the themes the tenant changes to: no `wait`, and a theme of the fitting room. */
const BEFORE: Theme[] = [...DEFAULT_THEMES];
const AFTER: Theme[] = [
  ...DEFAULT_THEMES.filter((theme) => theme.slug !== 'wait'),
  {
    slug: 'provador',
    name: { 'pt-BR': 'Provador', es: 'Probador', en: 'Fitting room' },
    keywords: { 'pt-BR': ['provador'], es: ['probador'], en: ['fitting room'] },
  },
];

const day = new Date().toISOString().slice(0, 10);

async function setThemes(tenant: TestTenant, themes: Theme[]) {
  const read = await api({ path: '/public/admin/config', key: tenant.adminKey });
  const put = await api({
    method: 'PUT',
    path: '/public/admin/config',
    key: tenant.adminKey,
    body: { ...read.body, themes },
    headers: { 'if-match': read.headers.etag! },
  });
  expect(put.status, put.text).toBe(200);
}

/** The comments answered on the tenant's survey and analysed once; each answer's id, in the comments' order. */
async function answerAll(tenant: TestTenant): Promise<number[]> {
  const ids: number[] = [];
  for (const [score, comment] of COMMENTS) {
    const id = await registerSale(api, tenant.key, { store_id: 1, phone: '11987654321' });
    const answered = await chatbot({
      method: 'POST',
      path: '/survey',
      key: tenant.chatbotKey,
      body: { transactionId: id, attemptId: 1, journey: 'loja', score, classes: [], comment },
    });
    expect(answered.status, answered.text).toBe(201);
    ids.push(id);
  }
  const messages = (await analysisQueue.drain()) as { tenantId: number; transactionId: number; version: number }[];
  for (const { tenantId, transactionId, version } of messages)
    expect(await commentAnalyser.analyse(tenantId, transactionId, version)).toBe('analysed');
  return ids;
}

/**
 * What a manager reads of the tenant's comments of the day: the themes' rows, the answers listed by each theme's
 * polarity and the suggestions (answers named by their comment's place in COMMENTS, so that two tenants compare).
 */
async function reported(tenant: TestTenant, ids: number[], themes: Theme[]) {
  const headers = { 'x-service-user-token': tenant.userToken };
  const commentOf = (id: number) => {
    expect(ids, `answer ${id}`).toContain(id);
    return ids.indexOf(id);
  };
  const results = await api({
    path: '/public/results',
    key: tenant.key,
    query: { journey: 'loja', from: day, to: day, group_by: 'theme' },
    headers,
  });
  expect(results.status, results.text).toBe(200);
  const aspects: Record<string, number[]> = {};
  for (const { slug: theme } of themes)
    for (const polarity of ['negative', 'positive', 'neutral', 'mixed']) {
      const listed = await api({ path: '/public/answers', key: tenant.key, query: { aspect: `${theme}:${polarity}` }, headers });
      expect(listed.status, listed.text).toBe(200);
      const found = (listed.body.data as { id: number }[]).map((answer) => commentOf(answer.id)).sort();
      if (found.length) aspects[`${theme}:${polarity}`] = found;
    }
  const suggestions = await api({ path: '/public/themes/suggestions', key: tenant.key, query: { from: day, to: day }, headers });
  expect(suggestions.status, suggestions.text).toBe(200);
  // Examples fill slots by answer id (two answers may share one): each must be an answer of the tenant; which ones, not compared.
  for (const suggestion of suggestions.body as { examples: number[] }[]) suggestion.examples.forEach(commentOf);
  return {
    themes: results.body.data,
    aspects,
    suggestions: (suggestions.body as { phrase: string; examples: number[] }[]).map(({ examples: _, ...suggestion }) => suggestion),
  };
}

let reanalysed: TestTenant;
let fresh: TestTenant;
let reanalysedIds: number[];
let freshIds: number[];
const lines: string[] = [];
const reanalyse = () => commentReanalysis(reanalysed.tenantId, { from: day, to: day }, (line) => lines.push(line));

beforeAll(async () => {
  [reanalysed, fresh] = await Promise.all([newTenant(), newTenant()]);
  await setThemes(fresh, AFTER);
  reanalysedIds = await answerAll(reanalysed);
  freshIds = await answerAll(fresh);
}, 120_000);

describe('reanalyse', () => {
  it('moves the theme counts, the polarities and the suggestions to the new themes as one analysis counts them, once however often it runs, and once with two runs at once', async () => {
    // Prepare: what one analysis with each list of themes reports.
    const once = { before: await reported(reanalysed, reanalysedIds, BEFORE), after: await reported(fresh, freshIds, AFTER) };
    // The two lists report differently (else the comparison below proves nothing).
    expect(once.before.themes.map((row: { theme: string }) => row.theme)).toContain('wait');
    expect(once.after.themes.map((row: { theme: string }) => row.theme)).toContain('provador');
    expect(once.before.suggestions.map((s) => s.phrase)).toContain('cadeira bamba');
    // "parado" is an opinion word: the service's key phrase ends before it (shared/themes/extraction.ts).
    expect(once.after.suggestions.map((s) => s.phrase)).toContain('elevador');
    expect(once.before.suggestions).not.toEqual(once.after.suggestions);

    // Act: the themes change, and the operator runs reanalyse twice; then back to the first themes, two runs at once.
    await setThemes(reanalysed, AFTER);
    const first = await reanalyse();
    const afterFirst = await reported(reanalysed, reanalysedIds, AFTER);
    const second = await reanalyse();
    const afterSecond = await reported(reanalysed, reanalysedIds, AFTER);
    await setThemes(reanalysed, BEFORE);
    const together = await Promise.all([reanalyse(), reanalyse()]);
    const afterTogether = await reported(reanalysed, reanalysedIds, BEFORE);

    // Assess
    expect(afterFirst).toEqual(once.after);
    expect(afterSecond).toEqual(once.after);
    expect(afterTogether).toEqual(once.before);
    // The fitting room's two comments and the queue's: the others' mentions are the same (in another order).
    expect(first.moved).toBe(3);
    expect(second.moved).toBe(0);
    // Each answer that moved, moved in one of the two runs: the other found it done, or lost the race to it.
    expect(together[0].moved + together[1].moved).toBe(first.moved);
    expect(lines).toContain(`done: ${COMMENTS.length} answers read, 0 moved to the current themes`);
  }, 120_000);
});
