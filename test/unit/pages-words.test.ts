import { sealer } from '../../shared/sealed.js';
import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { NewUserBody, UserView } from '../../shared/access/tenant-users.js';
import type { AnswerBody } from '../../shared/answers/schema.js';
import type { Locale } from '../../shared/locale.js';
import type { ConfigDocument, JourneyConfig } from '../../shared/tenants/config-schema.js';
import { adminJourneysPage } from '../../shared/workspace/admin-journeys-page.js';
import { adminUsersPage, type UsersPorts } from '../../shared/workspace/admin-users-page.js';
import { adminWebhooksPage } from '../../shared/workspace/admin-webhooks-page.js';
import { answersPage } from '../../shared/workspace/answers-page.js';

/*
 * Issue 46 §2: the workspace speaks the manager's words, never codes. Each page as a function of its records, in
 * pt-BR and es.
 */

const ADMIN: UserRecord = { name: 'admin@aurora.test', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'admin' };
const settingsIn = (locale: Locale) => async () => ({ locale, delivery: {}, brand: { name: 'Café Aurora' } });
const request = (over: { query?: Record<string, string>; form?: URLSearchParams } = {}) => ({
  tenantId: 1,
  user: ADMIN,
  base: '',
  query: over.query ?? {},
  form: over.form ?? new URLSearchParams(),
});

describe('the answers page filters by an employee’s name', () => {
  const answer: AnswerBody = {
    id: 1,
    transaction_id: null,
    answered_at: '2026-03-05T15:04:00Z',
    journey: { id: 1, slug: 'visit', indicator: 'nps' },
    store: 7,
    employee: 8,
    customer: { id: 9, name: 'Ana' },
    channel: 'email',
    score: 9,
    bucket: 'promoter',
    comment: null,
    classes: [],
    sentiment: null,
    themes: null,
    aspects: null,
  };
  const show = (locale: Locale, employees: Map<number, string> | undefined, query: Record<string, string>) =>
    answersPage({
      settings: async () => ({ journeys: [{ id: 1, slug: 'visit', indicator: 'nps' } as JourneyConfig], classes: [], locale }),
      storeChoices: async () => new Map([[7, 'Loja Paulista']]),
      employeeChoices: async () => employees,
      listAnswers: async () => ({ body: { data: [answer], limit: 20, next_cursor: null }, shownCustomers: [9], csv: () => '' }),
      storeNames: async () => new Map([[7, 'Loja Paulista']]),
      employeeNames: async () => new Map([[8, 'Bia']]),
      recordReads: async () => undefined,
      exports: { find: async () => undefined },
    }).showAnswers({ tenantId: 1, user: ADMIN, base: '', requestId: 'r', query });

  it('offers the employees the user may see by name, sorted, the chosen one selected', async () => {
    const choices = new Map([
      [8, 'Bia'],
      [5, 'Ana'],
    ]);
    const pt = (await show('pt-BR', choices, { employee: '8' })).html!;
    expect(pt).toContain(
      '<label for="f-employee">Funcionário</label><select id="f-employee" name="employee"><option value="">Todos os funcionários</option><option value="5">Ana</option><option value="8" selected>Bia</option></select>',
    );
    expect(pt).not.toContain('(código)');
    const es = (await show('es', choices, {})).html!;
    expect(es).toContain(
      '<label for="f-employee">Empleado</label><select id="f-employee" name="employee"><option value="">Todos los empleados</option>',
    );
    expect(es).not.toContain('Empleado (código)');
  });

  it('keeps an employee chosen outside the list selected, and the code field when there are more than a select holds', async () => {
    const outside = (await show('pt-BR', new Map([[5, 'Ana']]), { employee: '8' })).html!;
    expect(outside).toContain('<option value="8" selected>#8</option>');
    const many = (await show('es', undefined, { employee: '8' })).html!;
    expect(many).toContain(
      '<label for="f-employee">Empleado (código)</label><input id="f-employee" name="employee" type="number" min="1" inputmode="numeric" value="8">',
    );
  });
});

describe('the users page offers the stores and groups by name', () => {
  const storesIn: Map<number, string> = new Map([
    [1, 'Loja Centro'],
    [2, 'Loja Norte'],
  ]);
  const scoped: UserView = {
    name: 'gerente@aurora.test',
    scope: { stores: [2], groups: [4] },
    role: 'member',
    created_at: '2026-01-01T00:00:00Z',
  } as UserView;
  const created: NewUserBody[] = [];
  const users = (locale: Locale, stores: Map<number, string> | undefined) =>
    adminUsersPage({
      settings: settingsIn(locale),
      listUsers: async () => [scoped],
      createUser: async (_tenant: number, { body }: { body: NewUserBody }) => {
        created.push(body);
        return { ...scoped, name: body.email, token: 't', invited: 'created' };
      },
      updateUser: async () => scoped,
      shownOnce: { sealer: { seal: () => 'sealed', open: () => undefined }, spend: async () => true },
      groups: async () => [{ id: 4, name: 'Região Sul' }],
      storeNames: async () => storesIn,
      storeChoices: async () => stores,
    } as unknown as UsersPorts);

  it('lists the stores and groups as checkboxes by name, in the invitation and in a user’s change', async () => {
    const pt = (await users('pt-BR', storesIn).showUsers(request())).html!;
    expect(pt).toContain('<label class="check"><input type="checkbox" name="stores" value="1"> Loja Centro</label>');
    expect(pt).toContain('<label class="check"><input type="checkbox" name="groups" value="4"> Região Sul</label>');
    // The scoped user's change shows what they see ticked.
    expect(pt).toContain('<label class="check"><input type="checkbox" name="stores" value="2" checked> Loja Norte</label>');
    expect(pt).toContain('<label class="check"><input type="checkbox" name="groups" value="4" checked> Região Sul</label>');
    expect(pt).not.toContain('códigos separados');
    const es = (await users('es', storesIn).showUsers(request())).html!;
    expect(es).toContain('<legend>Tiendas</legend>');
    expect(es).toContain('<legend>Grupos</legend>');
    expect(es).not.toContain('códigos separados');
  });

  it('invites with the ticked stores and groups', async () => {
    const form = new URLSearchParams([
      ['action', 'create'],
      ['email', 'nova@aurora.test'],
      ['scope', 'some'],
      ['stores', '1'],
      ['stores', '2'],
      ['groups', '4'],
      ['role', 'member'],
    ]);
    const answer = await users('pt-BR', storesIn).saveUsers(request({ form }));
    expect(answer.status).toBe(303);
    expect(created.at(-1)).toEqual({ email: 'nova@aurora.test', scope: { stores: [1, 2], groups: [4] }, role: 'member' });
  });

  it('keeps the codes field for stores when the tenant has more than a list holds', async () => {
    const es = (await users('es', undefined).showUsers(request())).html!;
    expect(es).toContain('Tiendas (códigos separados por comas)');
    expect(es).toMatch(/<input id="e0-scope-stores" name="stores" value="2"/);
    expect(es).toContain('<label class="check"><input type="checkbox" name="groups" value="4"> Região Sul</label>');
  });
});

describe('the journeys page names each rated item’s scale in words', () => {
  const config = {
    journeys: [{ id: 1, slug: 'visit', name: 'Visita', indicator: 'nps', classes: [1, 2, 3], channels: ['email'] }],
    classes: [
      { id: 1, label: 'Atendimento', type: 'csat' },
      { id: 2, label: 'Limpeza', type: 'csat5Stars' },
      { id: 3, label: 'Entrega', type: 'ces' },
    ],
  } as unknown as ConfigDocument;
  const show = async (locale: Locale) =>
    (
      await adminJourneysPage({
        settings: settingsIn(locale),
        readConfig: async () => ({ config, version: 3 }),
        replaceConfig: async () => ({ version: 4, changes: [] }),
      }).showJourneys(request())
    ).html!;

  it('in the list and in the form’s checkboxes', async () => {
    const pt = await show('pt-BR');
    expect(pt).toContain('Atendimento — CSAT (1 a 5), Limpeza — Estrelas (1 a 5), Entrega — Esforço (CES, 1 a 7)');
    expect(pt).toContain('<input type="checkbox" name="classes" value="2"> Limpeza — Estrelas (1 a 5)</label>');
    expect(pt).not.toMatch(/\((csat|csat5Stars|ces|nps)\)/);
    const es = await show('es');
    expect(es).toContain('Limpeza — Estrellas (1 a 5)');
    expect(es).not.toMatch(/\((csat|csat5Stars|ces|nps)\)/);
  });
});

describe('the webhooks page names each event in words, its code beside', () => {
  const config = {
    delivery: { webhooks: [{ url: 'https://hooks.example/a', events: ['survey.answered', 'case.opened'] }] },
    alerts: {
      chat: [
        { kind: 'slack', url: 'https://hooks.slack.com/services/a', events: ['case.opened'], comment: false },
        { kind: 'teams', url: 'https://teams.example/b', events: ['case.overdue', 'digest'], stores: [2, 5], comment: true },
      ],
    },
  } as unknown as ConfigDocument;
  const chatStatus = async () => ({
    health: new Map([['https://teams.example/b', { gone: 2, broken: true }]]),
    failed: [
      {
        id: 'dlv_1',
        event_id: 'evt_1',
        type: 'case.opened' as const,
        url: 'https://teams.example/b',
        attempt: 1,
        failed_at: '2026-11-26T12:00:00.000Z',
        error: 'HTTP 410',
        next_attempt_at: null,
      },
    ],
  });
  const show = async (locale: Locale) =>
    (
      await adminWebhooksPage({
        settings: settingsIn(locale),
        readConfig: async () => ({ config, version: 3 }),
        replaceConfig: async () => ({ version: 4, changes: [] }),
        shownOnce: { sealer: sealer(() => 's'.repeat(32), 'shown-once/v1'), spend: async () => true },
        chatStatus,
      }).showWebhooks(request())
    ).html!;

  it('in the endpoints’ list and in the form’s checkboxes', async () => {
    const pt = await show('pt-BR');
    expect(pt).toContain('Resposta recebida (<code>survey.answered</code>), Caso aberto (<code>case.opened</code>)');
    expect(pt).toContain(
      '<input type="checkbox" name="events" value="survey.failed"> Pesquisa não entregue (<code>survey.failed</code>)</label>',
    );
    const es = await show('es');
    expect(es).toContain('Respuesta recibida (<code>survey.answered</code>), Caso abierto (<code>case.opened</code>)');
    expect(es).toContain('Caso resuelto (<code>case.resolved</code>)');
  });

  it('shows the chat endpoints with what each hears of, the broken one marked, and the failed messages, in the tenant’s language', async () => {
    const pt = await show('pt-BR');
    expect(pt).toContain('<strong>Slack</strong> <code>https://hooks.slack.com/services/a</code>');
    expect(pt).toContain(
      'Caso com prazo vencido (<code>case.overdue</code>), Resumo periódico (<code>digest</code>) · lojas 2, 5 · com o comentário do cliente',
    );
    expect(pt).toContain('Quebrado: respondeu 404 ou 410 2 vezes seguidas.');
    expect(pt.match(/Quebrado/g)).toHaveLength(1);
    expect(pt).toContain('<code>HTTP 410</code>');
    const es = await show('es');
    expect(es).toContain('Roto: respondió 404 o 410 2 veces seguidas.');
    expect(es).toContain('todas las tiendas');
  });
});
