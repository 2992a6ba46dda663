import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import type { SourceName } from '../../shared/channels.js';
import { ENV } from '../../shared/config.js';
import type { Employee } from '../../shared/employees/schema.js';
import { ResultsQuery } from '../../shared/results/schema.js';
import { resultsService } from '../../shared/results/service.js';
import { answersBySource, countsOfSource, RESULT_SOURCES, type ResultSource } from '../../shared/results/sources.js';
import { answerTally, merge, sentTally, type Counted } from '../../shared/results/tally.js';
import type { Store } from '../../shared/stores/schema.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';
import { resultsPage } from '../../shared/workspace/results-page.js';
import { memoryCounters } from '../support/memory.js';

/**
 * Results by source (issue 50): QR and kiosk answers also count in cells of their source, and a report of one source
 * reads the counters as that source's, the transaction source's as the whole less the other two.
 */

describe('the counts of one source', () => {
  // A counter: 10 answers, 3 by QR code and 2 by kiosk; 8 surveys sent; a class; 2 cases opened.
  const counter = {
    n: 10,
    sum: 70,
    p: 4,
    d: 3,
    r: 5,
    sent: 8,
    c1n: 6,
    c1sum: 24,
    c1a: 8,
    co: 2,
    'qr:n': 3,
    'qr:sum': 9,
    'qr:p': 0,
    'qr:d': 2,
    'qr:c1n': 3,
    'qr:c1sum': 6,
    'kiosk:n': 2,
    'kiosk:sum': 20,
    'kiosk:p': 2,
    'kiosk:d': 0,
  };

  it('are the whole less the QR and kiosk cells for transaction, the sends and cases kept', () => {
    expect(countsOfSource(counter, 'transaction')).toEqual({ n: 5, sum: 41, p: 2, d: 1, r: 5, sent: 8, c1n: 3, c1sum: 18, c1a: 8, co: 2 });
  });

  it("are a QR code's or a kiosk's cells, with no survey sent, the cases kept", () => {
    expect(countsOfSource(counter, 'qr')).toMatchObject({ n: 3, sum: 9, p: 0, d: 2, r: 0, sent: 0, c1n: 3, c1sum: 6, c1a: 0, co: 2 });
    expect(countsOfSource(counter, 'kiosk')).toMatchObject({ n: 2, sum: 20, p: 2, d: 0, r: 0, sent: 0, c1n: 0, c1a: 0 });
  });

  it('split the answers by source, each view naming only its own', () => {
    expect(answersBySource(counter)).toEqual({ transaction: 5, qr: 3, kiosk: 2 });
    expect(answersBySource(counter, 'c1')).toEqual({ transaction: 3, qr: 3, kiosk: 0 });
    expect(answersBySource(countsOfSource(counter, 'qr'))).toEqual({ transaction: 0, qr: 3, kiosk: 0 });
    expect(answersBySource(countsOfSource(counter, 'transaction'))).toEqual({ transaction: 5, qr: 0, kiosk: 0 });
    expect(answersBySource({ n: 4 })).toEqual({ transaction: 4, qr: 0, kiosk: 0 });
  });

  it('are written beside the whole by a QR or kiosk answer, and moved by its correction', () => {
    const where: Counted = { journeyId: 1, storeId: 2, employeeId: 3 };
    const answer = (score: number, source: SourceName) => ({
      indicator: 'nps' as const,
      score,
      items: [],
      answeredAt: '2026-05-01T12:00:00Z',
      sentOn: null,
      source,
    });
    const [all] = answerTally(where, answer(3, 'qr'));
    expect(all!.add).toEqual({ n: 1, sum: 3, d: 1, 'qr:n': 1, 'qr:sum': 3, 'qr:d': 1 });
    const [moved] = answerTally(where, answer(9, 'qr'), answer(3, 'qr'));
    expect(moved!.add).toEqual({ sum: 6, p: 1, d: -1, 'qr:sum': 6, 'qr:p': 1, 'qr:d': -1 });
    expect(answerTally(where, answer(9, 'whatsapp'))[0]!.add).toEqual({ n: 1, sum: 9, p: 1 });
  });

  it('are named in one list, which the query takes', () => {
    const query = { journey: 'loja', from: '2026-01-01', to: '2026-01-31', group_by: 'store' };
    expect(RESULT_SOURCES).toEqual(['transaction', 'qr', 'kiosk']);
    expect(v.parse(ResultsQuery, { ...query, source: 'qr' }).source).toBe('qr');
    expect(() => v.parse(ResultsQuery, { ...query, source: 'api' })).toThrow('must be one of transaction, qr, kiosk');
  });
});

vi.stubEnv(ENV.localDeployment, '1');
const demo = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {}).tenants[0]!;
const SETTINGS = { ...demo, minAnswersToRank: 1, journeys: demo.journeys.map((j) => ({ ...j, minSample: 2 })) } as unknown as Settings;
const stores = { getMany: async (_t: number, ids: number[]) => ids.map((id) => ({ id, trade_name: `Loja ${id}` }) as Store) };
const employees = { getMany: async (_t: number, ids: number[]) => ids.map((id) => ({ id, name: `E${id}`, groups: [1] }) as Employee) };
const user = Promise.resolve({ name: 'gerente', scope: 'all' as const, tokenHash: 'h', created_at: '2026-01-01T00:00:00Z' });

const Answer = fc.record({
  source: fc.constantFrom<SourceName>('whatsapp', 'email', 'api', 'qr', 'kiosk'),
  store: fc.integer({ min: 1, max: 3 }),
  employee: fc.integer({ min: 1, max: 2 }),
  score: fc.integer({ min: 0, max: 10 }),
  item: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  day: fc.integer({ min: 0, max: 60 }),
});
type Answer = typeof Answer extends fc.Arbitrary<infer A> ? A : never;
const sourceOf = (answer: Answer): ResultSource => (answer.source === 'qr' || answer.source === 'kiosk' ? answer.source : 'transaction');

/** Counters fed by the answers as the answer paths feed them: a survey sent before each answer of the transaction source. */
function counted(answers: readonly Answer[]) {
  const counters = memoryCounters();
  for (const a of answers) {
    const where: Counted = { journeyId: 1, storeId: a.store, employeeId: a.employee };
    const day = new Date(Date.UTC(2026, 2, 1 + a.day)).toISOString().slice(0, 10);
    const sent = sourceOf(a) === 'transaction' && a.source !== 'api';
    if (sent) counters.add(7, { journeyId: 1, deltas: sentTally(where, new Date(`${day}T09:00:00Z`), [1]) });
    const items = a.item === undefined ? [] : [{ classId: 1, indicator: 'csat' as const, score: a.item }];
    const scored = { indicator: 'nps' as const, score: a.score, items, answeredAt: `${day}T12:00:00Z`, sentOn: sent ? day : null };
    counters.add(7, { journeyId: 1, deltas: merge(answerTally(where, { ...scored, source: a.source })) });
  }
  return resultsService({ counters, settings: async () => SETTINGS, stores, employees });
}

describe('a report of one source', () => {
  it("is the report of that source's answers alone, in every grouping", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Answer, { maxLength: 30 }), fc.constantFrom(...RESULT_SOURCES), async (answers, source) => {
        const mixed = counted(answers);
        const alone = counted(answers.filter((a) => sourceOf(a) === source));
        for (const group_by of ['store', 'employee', 'journey', 'class', 'week'] as const) {
          const query = { journey: 'loja', from: '2026-03-10', to: '2026-04-20', group_by };
          expect(await mixed.report(7, { ...query, source }, user)).toEqual(await alone.report(7, query, user));
        }
      }),
      { numRuns: 60 },
    );
  });

  it('leaves the whole as it was, its split adding up to its answers', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(Answer, { maxLength: 30 }), async (answers) => {
        const { data } = await counted(answers).report(
          7,
          { journey: 'loja', from: '2026-03-01', to: '2026-04-30', group_by: 'store' },
          user,
        );
        for (const row of data) {
          const inStore = answers.filter((a) => String(a.store) === row.key);
          expect(row.responses).toBe(inStore.length);
          expect(row.sources).toEqual(Object.fromEntries(RESULT_SOURCES.map((s) => [s, inStore.filter((a) => sourceOf(a) === s).length])));
        }
      }),
      { numRuns: 60 },
    );
  });
});

describe('the results page by source', () => {
  const answer = (source: SourceName, store: number, score: number): Answer => ({
    source,
    store,
    employee: 1,
    score,
    item: undefined,
    day: 20,
  });
  const service = counted([
    answer('whatsapp', 1, 9),
    answer('whatsapp', 2, 3),
    answer('qr', 2, 0),
    answer('qr', 2, 1),
    answer('kiosk', 1, 10),
  ]);
  const themes = async (_tenant: number, query: { journey: string; from: string; to: string }) => ({
    journey: { id: 1, slug: query.journey, indicator: 'nps' as const },
    from: query.from,
    to: query.to,
    group_by: 'theme' as const,
    previous: { from: query.from, to: query.to },
    data: [],
  });
  const show = resultsPage({
    settings: async () => ({ ...SETTINGS, locale: 'pt-BR' }),
    report: service.report,
    drivers: service.drivers,
    themes,
    examples: async () => new Map(),
  });
  const page = async (query: Record<string, string>) =>
    (
      await show({
        tenantId: 7,
        user: await user,
        base: '',
        query: { journey: 'loja', from: '2026-03-01', to: '2026-03-31', ...query },
        today: '2026-03-31',
      })
    ).html ?? '';
  /** Each store of the stores' table and its answers. */
  const storeAnswers = (html: string) =>
    [...(html.match(/<table id="stores"[\s\S]*?<\/table>/)?.[0] ?? '').matchAll(/store=(\d)[\s\S]*?data-label="Respostas">(\d+)</g)].map(
      (m) => [m[1], m[2]],
    );

  it('shows the answers by source, and narrows every figure to the source chosen', async () => {
    const whole = await page({});
    expect(whole).toContain('<p id="sources">Respostas por origem: Vendas registradas 2 · QR code 2 · Totem 1</p>');
    expect(whole).toContain('<label for="source">Origem</label><select id="source" name="source"><option value="">Todas</option>');
    expect(storeAnswers(whole)).toEqual([
      ['1', '2'],
      ['2', '3'],
    ]);
    expect(whole).not.toContain('Os temas contam');

    const qr = await page({ source: 'qr' });
    expect(qr).toContain('<option value="qr" selected>QR code</option>');
    expect(qr).toContain('<p id="sources">Respostas por origem: Vendas registradas 0 · QR code 2 · Totem 0</p>');
    expect(storeAnswers(qr)).toEqual([['2', '2']]);
    expect(qr).toContain('<p>Os temas contam as respostas de todas as origens.</p>');
    expect(storeAnswers(await page({ source: 'transaction' }))).toEqual([
      ['1', '1'],
      ['2', '1'],
    ]);
    // An unknown source is the whole.
    expect(storeAnswers(await page({ source: 'api' }))).toEqual(storeAnswers(whole));
  });
});
