import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { referencePaths, routes, workspaceRoutes } from '../../infra/routes.js';
import { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { keys } from '../../shared/keys.js';
import { projectionOf, TABLE } from '../../shared/table.js';

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');
const readme = read('README.md');
/** The manual: every page under docs/, by its path from the repository's root. */
const docs = new Map(
  readdirSync(new URL('docs/', root), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => [`docs/${name}`, read(`docs/${name}`)]),
);
const lines = (text: string) => text.split('\n');
const docLines = [...docs.values()].flatMap(lines);
/** The anchors GitHub gives a page's headings. */
const anchorsOf = (text: string) =>
  [...text.matchAll(/^#+ (.+)$/gm)].map(([, heading]) =>
    heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-'),
  );
const between = (text: string, from: string, to: string) => text.slice(text.indexOf(from), text.indexOf(to));

describe('the README and the manual in docs/', () => {
  it('list every route of the route table and every workspace page, with its alias: the README in one line, docs/ in full', () => {
    for (const route of [...routes, ...workspaceRoutes]) {
      const [canonical, ...aliases] = route.paths;
      const start = `| ${route.method} | \`${canonical}\``;
      for (const [where, row] of [
        ['README.md', lines(readme).find((line) => line.startsWith(start))],
        ['docs/', docLines.find((line) => line.startsWith(start))],
      ]) {
        expect(row, `${where}: ${route.method} ${canonical}`).toBeDefined();
        expect(row).toContain(route.operationId);
        for (const alias of aliases) expect(row).toContain(`\`${alias}\``);
      }
    }
  });

  it('list the pages each API serves beside its operations (the document, /docs, its assets, /results)', () => {
    for (const path of new Set([...referencePaths('public'), ...referencePaths('chatbot')])) {
      expect(
        lines(readme).some((line) => line.startsWith(`| GET | \`${path}\``)),
        `README.md ${path}`,
      ).toBe(true);
      expect(
        docLines.some((line) => line.startsWith(`| GET | \`${path}\``)),
        `docs/ ${path}`,
      ).toBe(true);
    }
  });

  it("map every folder of shared/, infra/ and test/ in the README's layout", () => {
    const map = between(readme, '## Layout', '## How do I');
    for (const top of ['shared', 'infra', 'test'])
      for (const entry of readdirSync(new URL(`${top}/`, root), { withFileTypes: true }))
        if (entry.isDirectory()) expect(map, `${top}/${entry.name}/`).toContain(`${top}/${entry.name}/`);
  });

  it('name only files and folders that exist, and link only to pages that exist', () => {
    const missing: string[] = [];
    for (const [page, text] of [['README.md', readme] as const, ...docs]) {
      const from = new URL(page, root);
      for (const [, target, anchor] of text.matchAll(/\]\(([^)#\s]*)(?:#([^)]*))?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        const linked = target ? new URL(target, from) : from;
        if (!existsSync(linked)) missing.push(`${page} links ${target}`);
        else if (anchor && linked.pathname.endsWith('.md') && !anchorsOf(readFileSync(linked, 'utf8')).includes(anchor))
          missing.push(`${page} links ${target}#${anchor}`);
      }
      // A path in backticks from the repository's root: a folder of it, and no placeholder (`<concept>`) or glob.
      for (const [, path] of text.matchAll(/`((?:infra|functions|shared|test|bench|docs)\/[\w./-]*)`/g))
        if (!path!.includes('*') && !existsSync(new URL(path!, root))) missing.push(`${page} names ${path}`);
    }
    expect(missing).toEqual([]);
  });

  it('shows the dispatch message the code sends, which names the attempt and carries no contact or token', () => {
    const transactions = docs.get('docs/api/transactions.md')!;
    const section = transactions.slice(transactions.indexOf('Each scheduled survey puts one message on SurveyDispatchQueue'));
    const example = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!) as Record<string, unknown>;
    // Every field is in the example, or (`kind`, the recovery survey's) named in the words before it.
    const prose = section.slice(0, section.indexOf('```json'));
    const unshown = Object.keys(DispatchMessage.entries).filter((name) => !(name in example));
    expect(unshown.filter((name) => !prose.includes(`\`${name}\``))).toEqual([]);
    expect(Object.keys(example).every((name) => name in DispatchMessage.entries)).toBe(true);
    expect(v.safeParse(DispatchMessage, example).success).toBe(true);
  });

  describe("the README's tables", () => {
    /** The rows of the README's table under `heading`: from its header to the first line that is not a row, as cells. */
    const rowsUnder = (heading: string) => {
      const section = lines(readme.slice(readme.indexOf(heading)));
      const start = section.findIndex((line) => line.startsWith('|'));
      const end = section.findIndex((line, index) => index > start && !line.startsWith('|'));
      return section.slice(start + 2, end).map((line) => ({
        line,
        cells: line
          .slice(1, -1)
          .split(' | ')
          .map((cell) => cell.trim()),
      }));
    };
    const linksOf = (text: string) => [...text.matchAll(/\]\(([^)#\s]+)[^)]*\)/g)].map((match) => match[1]!);

    it('hold in the endpoint table only endpoints, each linking the page of the manual that lists it', () => {
      const known = [...routes, ...workspaceRoutes].map((route) => route.paths[0]);
      const reference = new Set([...referencePaths('public'), ...referencePaths('chatbot')]);
      const wrong: string[] = [];
      for (const { line, cells } of rowsUnder('## Endpoints')) {
        const [method, path, , page] = cells;
        const canonical = /^`([^`]+)`/.exec(path ?? '')?.[1];
        if (cells.length !== 4 || !/^[A-Z]+$/.test(method!) || !canonical || !(known.includes(canonical) || reference.has(canonical))) {
          wrong.push(`not an endpoint: ${line}`);
          continue;
        }
        const [link] = linksOf(page!);
        const listed = [...docs].filter(([, text]) => lines(text).some((row) => row.startsWith(`| ${method} | \`${canonical}\``)));
        if (!link || !listed.some(([name]) => name === link))
          wrong.push(`${method} ${canonical} links ${link}, listed in ${listed.map(([name]) => name).join(', ')}`);
      }
      expect(wrong).toEqual([]);
    });

    it('list every page of docs/ in The manual, a row a subject with what it holds', () => {
      const rows = rowsUnder('## The manual');
      for (const { line, cells } of rows) {
        expect(cells, line).toHaveLength(2);
        expect(linksOf(cells[0]!).length, line).toBeGreaterThan(0);
        expect(linksOf(cells[1]!), line).toEqual([]);
        expect(cells[1]!.length, line).toBeGreaterThan(10);
      }
      const listed = rows.flatMap(({ cells }) => linksOf(cells[0]!));
      expect([...docs.keys()].filter((page) => !listed.includes(page)).sort()).toEqual([]);
      expect(listed.filter((page) => !docs.has(page))).toEqual([]);
    });
  });

  it('say where a chat alert is sent from, and which file holds the default themes', () => {
    const cases = docs.get('docs/cases.md')!;
    const chat = between(cases, '## Where a chat alert is sent from', '## Opening a case');
    for (const file of [
      'shared/cases/case-event.ts',
      'shared/adapters/chat-publisher.ts',
      'functions/queue/chat-alerts.ts',
      'shared/chat/delivery.ts',
    ])
      expect(chat, file).toContain(`\`${file}\``);
    const themes = docs.get('docs/themes.md')!;
    const defaults = between(themes, '## The default themes', "## The tenant's themes");
    const named = [...defaults.matchAll(/`(shared\/[\w/.-]+\.ts)`/g)].map((match) => match[1]!);
    expect(named.filter((file) => existsSync(new URL(file, root)) && read(file).includes('export const DEFAULT_THEMES'))).toHaveLength(1);
  });

  it('shows the two commands, and stays a front page of at most 300 lines', () => {
    expect(readme).toContain('npm install && npm start');
    expect(readme).toContain('npm test');
    expect(lines(readme).length).toBeLessThanOrEqual(300);
  });

  describe('data model', () => {
    const section = docs.get('docs/data-model.md')!;
    /** The rows of the markdown table whose header starts with `header`, as cells. */
    const tableRows = (header: string): string[][] => {
      const lines = section.split('\n');
      const start = lines.findIndex((line) => line.startsWith(header));
      expect(start, header).toBeGreaterThanOrEqual(0);
      const rows: string[][] = [];
      for (const line of lines.slice(start + 2)) {
        if (!line.startsWith('|')) break;
        rows.push(
          line
            .slice(1, -1)
            .split(' | ')
            .map((cell) => cell.trim()),
        );
      }
      return rows;
    };
    const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
    /** A key pattern of the manual as a regular expression: `<anything>` is one key segment, `...` any leading segments. */
    const pattern = (text: string) =>
      new RegExp(
        `^${text
          .split(/(<[^>]+>|\.\.\.)/)
          .map((part) => (part === '...' ? '.+' : part.startsWith('<') ? '[^#]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('')}$`,
      );

    it('lists every index of shared/table.ts, with its key attributes and projection', () => {
      const rows = tableRows('| index |').map(([name, partitionKey, sortKey, projection]) => ({
        name,
        partitionKey: code(partitionKey!)[0],
        sortKey: code(sortKey!)[0],
        projection,
      }));
      expect(rows).toEqual(
        TABLE.indexes.map((index) => ({
          name: index.name,
          partitionKey: index.partitionKey,
          sortKey: index.sortKey,
          projection: {
            KEYS_ONLY: 'keys only',
            ALL: 'all',
            INCLUDE: Number(index.name.slice(3)) >= 12 ? 'the case attributes' : 'the answer attributes',
          }[projectionOf(index).type],
        })),
      );
    });

    const items = tableRows('| item | pk | sk | indexes |').map(([item, pk, sk, indexes]) => ({
      item: item!,
      pk: code(pk!).map(pattern),
      sk: code(sk!).map(pattern),
      indexes: code(indexes!).map(pattern),
      indexNames: [...indexes!.matchAll(/\bgsi\d+\b/g)].map((match) => match[0]),
    }));

    // One example of each thing shared/keys.ts builds (the type makes a new builder add its own): every item key must
    // be a row of the item table, every partition or sort value a pattern of it, and every row must be something built.
    type Builder = Exclude<keyof typeof keys, 'apiKeyHashOf' | 'transactionIdOf' | 'tenantIdOf' | 'dueShard'>;
    const built: Record<Builder, ({ pk: string; sk: string } | string)[]> = {
      tenant: [keys.tenant(7)],
      tenantCollection: [keys.tenantCollection()],
      tenantCounter: [keys.tenantCounter()],
      apiKey: [keys.apiKey('ab12')],
      apiKeyCollection: [keys.apiKeyCollection(7)],
      signInFailures: [keys.signInFailures('account', 'ab12'), keys.signInFailures('address', 'ab12')],
      userToken: [keys.userToken(7, 'ab12')],
      userCollection: [keys.userCollection(7)],
      userName: [keys.userName(7, 'gerente')],
      config: [keys.config(7)],
      configItem: (['JOURNEY', 'CLASS', 'GROUP', 'REGION'] as const).map((kind) => ({ pk: keys.config(7), sk: keys.configItem(kind, 1) })),
      configItems: [{ pk: keys.config(7), sk: `${keys.configItems('REGION')}1` }],
      deliveryConfig: [{ pk: keys.config(7), sk: keys.deliveryConfig }],
      privacyConfig: [{ pk: keys.config(7), sk: keys.privacyConfig }],
      languageConfig: [{ pk: keys.config(7), sk: keys.languageConfig }],
      brandConfig: [{ pk: keys.config(7), sk: keys.brandConfig }],
      reanalysis: [keys.reanalysis(7)],
      phrases: [keys.phrases(7, '2026-11'), keys.phrases(7, '2026')],
      phraseSort: [
        keys.phraseSort({ dimension: 'store', id: 1, grain: 'day', period: '2026-11-20', phrase: 'estacion' }),
        keys.phraseSort({ dimension: 'all', id: 0, grain: 'month', period: '2026-11', phrase: 'app trav' }),
      ],
      themeConfig: [{ pk: keys.config(7), sk: keys.themeConfig('wait') }],
      tenantLogo: [keys.tenantLogo(7, `${'a'.repeat(64)}.png`)],
      configApplied: [keys.configApplied(7)],
      configVersion: [{ pk: keys.config(7), sk: keys.configVersion }],
      configVersionCopy: [keys.configVersionCopy(7, 0), keys.configVersionCopy(7, 9)],
      audit: [keys.audit(7)],
      auditEntry: [keys.auditEntry(7, '2026-11-23T20:00:00.000Z', 'a1b2c3')],
      webhookSigning: [{ pk: keys.config(7), sk: keys.webhookSigning('https://hooks.example/a') }],
      qrGeneration: [{ pk: keys.config(7), sk: keys.qrGeneration }],
      qrAnswers: [keys.qrAnswers(7, { tokenHash: 'ab12', addressHash: 'cd34', window: 493000 })],
      kiosks: [keys.kiosks(7)],
      kiosk: [keys.kiosk(7, '0f1e2d3c4b5a6978')],
      counter: (['STORE', 'EMPLOYEE', 'CUSTOMER'] as const).map((entity) => keys.counter(7, entity)),
      entity: (['STORE', 'EMPLOYEE', 'CUSTOMER'] as const).map((entity) => keys.entity(7, entity, 5)),
      externalId: (['STORE', 'EMPLOYEE', 'CUSTOMER'] as const).map((entity) => keys.externalId(7, entity, 'X-1')),
      collection: (['STORE', 'EMPLOYEE'] as const).map((entity) => keys.collection(7, entity)),
      byValue: [
        keys.byValue(7, { entity: 'EMPLOYEE', field: 'email', value: 'a@b.example' }),
        ...(['email', 'phone', 'cpf'] as const).map((field) => keys.byValue(7, { entity: 'CUSTOMER', field, value: 'v1' })),
      ],
      byStatus: (['STORE', 'EMPLOYEE'] as const).map((entity) => keys.byStatus(7, entity, 'active')),
      byExternalId: (['STORE', 'EMPLOYEE'] as const).map((entity) => keys.byExternalId(7, entity, 'X-1')),
      optedOut: [keys.optedOut(7)],
      byName: [keys.byName(7, 'STORE'), keys.byName(7, 'EMPLOYEE'), keys.byName(7, 'CUSTOMER', 'jo')],
      nameSort: [keys.nameSort('joao', 5)],
      employeeStore: [keys.employeeStore(7, 5, 1)],
      storeEmployees: [keys.storeEmployees(7, 1)],
      transaction: [keys.transaction(7, 123456)],
      evaluationsByMonth: [keys.evaluationsByMonth(7, '2026-11')],
      evaluationSort: [keys.evaluationSort('2026-11-23T10:00:00Z', 123456)],
      evaluationByExternalId: [keys.evaluationByExternalId(7, 'X-1')],
      answersByStore: [keys.answersByStore(7, 1)],
      answersByShard: [keys.answersByShard(7, 3)],
      answersByStoreWith: [
        keys.answersByStoreWith(7, 1, { filter: 'theme', value: 'wait' }),
        keys.answersByStoreWith(7, 1, { filter: 'sentiment', value: 'mixed' }),
      ],
      answersByShardWith: [
        keys.answersByShardWith(7, 3, { filter: 'theme', value: 'price' }),
        keys.answersByShardWith(7, 3, { filter: 'sentiment', value: 'negative' }),
      ],
      answerFilterEntry: [
        keys.answerFilterEntry(7, 123456, { filter: 'theme', value: 'wait' }),
        keys.answerFilterEntry(7, 123456, { filter: 'sentiment', value: 'positive' }),
      ],
      results: [
        {
          pk: keys.results(7, { journeyId: 1, partition: '2026-11' }),
          sk: keys.resultSort({ grain: 'day', dimension: 'store', ids: [1], period: '2026-11-23' }),
        },
      ],
      resultSort: [
        {
          pk: keys.results(7, { journeyId: 1, partition: '2026' }),
          sk: keys.resultSort({ grain: 'month', dimension: 'store', ids: [1], period: '2026-11' }),
        },
      ],
      themes: [
        {
          pk: keys.themes(7, '2026-11'),
          sk: keys.themeSort({ dimension: 'store', id: 1, grain: 'day', period: '2026-11-23', theme: 'wait' }),
        },
      ],
      themeSort: [
        {
          pk: keys.themes(7, '2026'),
          sk: keys.themeSort({ dimension: 'journey', id: 1, grain: 'month', period: '2026-11', theme: 'wait' }),
        },
        {
          pk: keys.themes(7, '2026'),
          sk: keys.themeSort({ dimension: 'storeJourney', id: [1, 2], grain: 'month', period: '2026-11', theme: 'wait' }),
        },
      ],
      failedDeliveries: [{ pk: keys.failedDeliveries(7), sk: keys.failedDeliverySort('2026-11-23T10:00:00Z', 'e1', 1) }],
      failedDeliverySort: [keys.failedDeliverySort('2026-11-23T10:00:00Z', 'e1', 2)],
      webhookDelivery: [keys.webhookDelivery(7, 'dlv_ab12')],
      failedDeliveriesOf: [keys.failedDeliveriesOf(7, 'events:ab12')],
      failedDeliveryOfSort: [keys.failedDeliveryOfSort('2026-11-23T10:00:00Z', 'dlv_ab12')],
      surveyed: [keys.surveyed(7, 5, 1)],
      casesConfig: [{ pk: keys.config(7), sk: keys.casesConfig }],
      rankingConfig: [{ pk: keys.config(7), sk: keys.rankingConfig }],
      alertsConfig: [{ pk: keys.config(7), sk: keys.alertsConfig }],
      digestsConfig: [{ pk: keys.config(7), sk: keys.digestsConfig }],
      commentAnalysisConfig: [{ pk: keys.config(7), sk: keys.commentAnalysisConfig }],
      scoreDropAlert: [keys.scoreDropAlert(7, 3, '2026-11-23')],
      chatDelivery: [keys.chatDelivery(7, 'dlv_ab12')],
      failedChatDeliveries: [keys.failedChatDeliveries(7)],
      failedChatDeliverySort: [keys.failedChatDeliverySort('2026-11-23T10:00:00Z', 'dlv_ab12')],
      chatEndpoints: [{ pk: keys.chatEndpoints(7), sk: 'events:ab12' }],
      analyticsConfig: [{ pk: keys.config(7), sk: keys.analyticsConfig }],
      analyticsKey: [{ pk: keys.config(7), sk: keys.analyticsKey }],
      case: [keys.case(7, 123456)],
      caseNumber: [keys.caseNumber(7)],
      caseByNumber: [keys.caseByNumber(7, 12)],
      caseEscalation: [keys.caseEscalation(7, 123456)],
      caseWhatsAppAlert: [keys.caseWhatsAppAlert(7, 123456, 'gerente@loja.example')],
      casesByStore: [keys.casesByStore(7, 1)],
      casesByShard: [keys.casesByShard(7, 2)],
      casesByOwner: [keys.casesByOwner(7, 'gerente@loja.example')],
      casesUnowned: [keys.casesUnowned(7, 2)],
      caseSort: [keys.caseSort({ rank: 2, overdue: false, dueAt: '2026-11-24T10:00:00.000Z', id: 123456 })],
      caseSortPrefix: [`${keys.caseSortPrefix(1, true)}2026-11-24T10:00:00.000Z#123456`],
      privacyRequest: [keys.privacyRequest(7, 'r1')],
      answerExport: [keys.answerExport(7, 'e1')],
      privacySlots: [keys.privacySlots(7)],
      privacySlot: [keys.privacySlot(7, 3)],
      privacyNamed: [keys.privacyNamed(7, 5, 'r1')],
      privacyNamedPrefix: [`${keys.privacyNamedPrefix}r1`],
      customerAccess: [keys.customerAccess(7, 5, { at: '2026-11-23T10:00:00Z', requestId: 'r1' })],
      customerAccessPrefix: [`${keys.customerAccessPrefix}2026-11-23T10:00:00Z#r1`],
      customerTransactions: [keys.customerTransactions(7, 5)],
      customerTransactionSort: [keys.customerTransactionSort('2026-11-23T10:00:00Z', 123456)],
      personalExpiry: [keys.personalExpiry('2026-11-23', 3)],
      personalExpirySort: [keys.personalExpirySort('2026-11-23T10:00:00Z', 7, 123456)],
      personalExpiryCheckpoint: [keys.personalExpiryCheckpoint()],
      dueMinute: [
        { pk: keys.dueMinute('2026-11-23T10:00', 31), sk: keys.dueAttempt(7, 123456, 1) },
        { pk: keys.dueMinute('2026-11-23T10:00', 0), sk: keys.dueCase(7, 123456) },
        { pk: keys.dueMinute('2026-11-23T10:00', 5), sk: keys.dueCaseAlert(7, 123456) },
        { pk: keys.dueMinute('2026-11-23T10:00', 7), sk: keys.dueDigest(7, 'week', '2026-11-16') },
        { pk: keys.dueMinute('2026-11-23T10:00', 9), sk: keys.dueScoreDrop(7, '2026-11-23') },
        { pk: keys.dueMinute('2026-11-23T03:30', 9), sk: keys.dueAnalytics(7, '2026-11-22') },
      ],
      dueMinuteUnsharded: [{ pk: keys.dueMinuteUnsharded('2026-11-23T10:00'), sk: keys.dueAttempt(7, 123456, 1) }],
      dueAttempt: [keys.dueAttempt(7, 123456, 1)],
      dueCase: [keys.dueCase(7, 123456)],
      dueCaseAlert: [keys.dueCaseAlert(7, 123456)],
      dueDigest: [keys.dueDigest(7, 'week', '2026-11-16')],
      dueScoreDrop: [keys.dueScoreDrop(7, '2026-11-23')],
      digestClaim: [keys.digestClaim(7, { user: 'gerente@demo.local', period: 'week', from: '2026-11-16' })],
      dueAnalytics: [keys.dueAnalytics(7, '2026-11-22')],
      analyticsChain: [keys.analyticsChain(7, 'run-2026-11-22')],
      surveysByMonth: [keys.surveysByMonth(7, '2026-11', 3)],
      casesByMonth: [keys.casesByMonth(7, '2026-11', 3)],
      analyticsDirtyDays: [keys.analyticsDirtyDays(7, 0), keys.analyticsDirtyDays(7, 5)],
      analyticsDirty: [keys.analyticsDirty(7, '2026-11-22', 5)],
      dueCheckpoint: [keys.dueCheckpoint()],
      suppressed: [keys.suppressed(7, 'ab12')],
      shownOnce: [keys.shownOnce(7, '0f8e2b1c-2a9d-4a4e-9d7e-1c2b3a4d5e6f')],
      health: [keys.health()],
    };
    const examples = Object.values(built).flat();
    const pairs = examples.filter((example): example is { pk: string; sk: string } => typeof example !== 'string');
    const values = [...examples.filter((example) => typeof example === 'string'), ...pairs.flatMap(({ pk, sk }) => [pk, sk])];

    it('has an example of every key builder of shared/keys.ts here', () => {
      const parsers = ['apiKeyHashOf', 'transactionIdOf', 'tenantIdOf', 'dueShard'];
      expect(
        Object.keys(keys)
          .filter((name) => !parsers.includes(name))
          .sort(),
      ).toEqual(Object.keys(built).sort());
    });

    it('has a row of the item table for every item key shared/keys.ts builds', () => {
      for (const { pk, sk } of pairs)
        expect(
          items.some((row) => row.pk.some((p) => p.test(pk)) && row.sk.some((s) => s.test(sk))),
          `${pk} / ${sk}`,
        ).toBe(true);
    });

    it('shows in the item table every partition and sort value shared/keys.ts builds', () => {
      const patterns = items.flatMap((row) => [...row.pk, ...row.sk, ...row.indexes]);
      for (const value of values)
        expect(
          patterns.some((p) => p.test(value)),
          value,
        ).toBe(true);
    });

    it('lists no item, key or index entry that shared/keys.ts does not build', () => {
      for (const row of items) {
        expect(
          pairs.some(({ pk, sk }) => row.pk.some((p) => p.test(pk)) && row.sk.some((s) => s.test(sk))),
          row.item,
        ).toBe(true);
        for (const entry of row.indexes)
          expect(
            values.some((value) => entry.test(value)),
            `${row.item}: ${entry.source}`,
          ).toBe(true);
      }
    });

    it('names in the item table only indexes of shared/table.ts, and each of them', () => {
      const named = new Set(items.flatMap((row) => row.indexNames));
      expect([...named].sort()).toEqual(TABLE.indexes.map((index) => index.name).sort());
    });
  });
});
