import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ENV } from '../../shared/config.js';
import { DEMO_TENANTS_FILE } from '../../infra/local/demo.js';
import { parseTenantFile } from '../../shared/tenants/tenant-file.js';

const tenant = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    tenants: [
      {
        id: 7,
        name: 'acme',
        classes: [{ id: 1, label: 'Atendimento', type: 'csat' }],
        journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['sms'] }],
        ...overrides,
      },
    ],
  });

describe('tenant files', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("normalise a manager's phone as a customer's, and name a wrong one without showing it", () => {
    const users = (phone: string) =>
      tenant({
        users: [
          { name: 'gerente@acme.test', scope: 'all', phone },
          { name: 'outro', scope: 'all' },
        ],
      });
    const { tenants } = parseTenantFile(users('(11) 98765-4321'), {});
    expect(tenants[0]!.users.map((u) => u.phone)).toEqual(['+5511987654321', undefined]);
    expect(() => parseTenantFile(users('12-34'), {})).toThrow(/^tenants\[0\]\.users\[0\]\.phone: is not a phone number$/);
  });

  it('take at most 100 journeys, 100 classes and 500 groups, naming the list past its bound', () => {
    const journeys = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: i + 1, slug: `j${i + 1}`, indicator: 'nps', classes: [], channels: ['sms'] }));
    const groups = (n: number) => Array.from({ length: n }, (_, i) => ({ id: i + 1, name: `g${i + 1}` }));
    expect(parseTenantFile(tenant({ journeys: journeys(100), groups: groups(500) }), {}).tenants[0]!.journeys).toHaveLength(100);
    expect(() => parseTenantFile(tenant({ journeys: journeys(101) }), {})).toThrow(/tenants\[0\]\.journeys: may list at most 100 journeys/);
    expect(() => parseTenantFile(tenant({ groups: groups(501) }), {})).toThrow(/tenants\[0\]\.groups: may list at most 500 groups/);
  });

  it('parse the committed demo file, with the defaults of its variables (on the local stack)', () => {
    vi.stubEnv(ENV.localDeployment, '1');
    const { tenants } = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {});
    expect(tenants.map((t) => t.name)).toEqual(['demo', 'demo-2']);
    expect(tenants[0]!.keys).toEqual([
      { scope: 'public', value: 'local-dev-api-key' },
      { scope: 'chatbot', value: 'local-dev-chatbot-key' },
      { scope: 'admin', value: 'local-dev-admin-key' },
    ]);
    expect(tenants[0]!.journeys.map((j) => [j.id, j.slug, j.indicator, j.classes, j.resurveyWindowDays, j.handOff])).toEqual([
      [1, 'loja', 'nps', [1, 2], null, []],
      [2, 'ecommerce', 'csat', [3, 4], 30, []],
      [3, 'atendimento', 'nps', [1], null, ['whatsapp']],
      [4, 'lembrete', 'nps', [1], null, []],
    ]);
    expect(tenants[0]!.journeys[3]!.attempts).toEqual([
      { channel: 'whatsapp', afterMinutes: 0 },
      { channel: 'email', afterMinutes: 1 },
    ]);
    expect(tenants[0]!.delivery).toEqual({
      quietHours: null,
      email: { from: 'pesquisa@demo.local', name: 'Pesquisa Demo' },
      sms: { originationIdentity: '+5511900000001' },
      whatsapp: { phoneNumberId: 'phone-number-id-demo', template: 'pesquisa_satisfacao', language: 'pt_BR' },
      chatbot: { url: 'http://localhost:8006/webhooks/1' },
      webhooks: [{ url: 'http://localhost:8006/events/1' }],
    });
    expect(tenants[1]!.delivery).toEqual({ quietHours: null });
    expect(tenants.map((t) => t.privacy.retentionDays)).toEqual([null, 365]);
  });

  it("refuse the demo file's local outbox off the local stack, naming each field", () => {
    vi.stubEnv(ENV.localDeployment, undefined);
    expect(() => parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {})).toThrow(
      /^tenants\[0\]\.delivery\.chatbot\.url: must be https on a public host \(http only on a local deployment\)\ntenants\[0\]\.delivery\.webhooks\[0\]\.url: must be https on a public host/,
    );
  });

  it('keep no retention unless a tenant sets one', () => {
    expect(parseTenantFile(tenant({}), {}).tenants[0]!.privacy).toEqual({ retentionDays: null });
    expect(parseTenantFile(tenant({ privacy: { retentionDays: 365 } }), {}).tenants[0]!.privacy).toEqual({ retentionDays: 365 });
  });

  it("keep the answer's comment out of events unless an endpoint opts in", () => {
    const webhooks = (listed: Record<string, unknown>[]) =>
      parseTenantFile(tenant({ delivery: { webhooks: listed } }), {}).tenants[0]!.delivery.webhooks!.map((w) => w.includeComment ?? false);
    expect(webhooks([{ url: 'https://hooks.example.com/a' }, { url: 'https://hooks.example.com/b', includeComment: true }])).toEqual([
      false,
      true,
    ]);
  });

  it("take the languages: the tenant's and a journey's locale, texts per language, a WhatsApp template per language", () => {
    const [parsed] = parseTenantFile(
      tenant({
        locale: 'es',
        classes: [{ id: 1, label: 'Entrega', type: 'ces', question: { 'pt-BR': 'Foi fácil receber?', en: 'Was delivery easy?' } }],
        journeys: [
          {
            id: 1,
            slug: 'loja',
            indicator: 'nps',
            classes: [1],
            channels: ['whatsapp'],
            locale: 'en',
            questions: { en: 'Would you recommend {company}?' },
            followUp: { detractor: { en: 'What went wrong?' } },
            thanks: { promoter: { es: '¡Gracias!' } },
          },
        ],
        delivery: {
          whatsapp: {
            phoneNumberId: 'pn',
            template: 'pesquisa',
            language: 'pt_BR',
            templates: { es: { template: 'encuesta', language: 'es' } },
          },
        },
      }),
      {},
    ).tenants;
    expect(parsed!.locale).toBe('es');
    expect(parsed!.journeys[0]).toMatchObject({ locale: 'en', followUp: { detractor: { en: 'What went wrong?' } } });
    expect(parsed!.classes[0]!.question).toEqual({ 'pt-BR': 'Foi fácil receber?', en: 'Was delivery easy?' });
    expect(parsed!.delivery.whatsapp!.templates).toEqual({ es: { template: 'encuesta', language: 'es' } });
  });

  it('take variables from the environment', () => {
    const { tenants } = parseTenantFile(readFileSync(DEMO_TENANTS_FILE, 'utf8'), {
      LOCAL_API_KEY: 'from-the-environment-123',
      OUTBOX_URL: 'https://outbox.example',
    });
    expect(tenants[0]!.keys[0]!.value).toBe('from-the-environment-123');
  });

  it.each([
    [
      { journeys: [{ id: 1, slug: 'loja', indicator: 'stars', classes: [1], channels: ['sms'] }] },
      'tenants[0].journeys[0].indicator: must be one of nps, csat, csat5Stars, ces, binary',
    ],
    [
      { journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [9], channels: ['sms'] }] },
      'tenants[0].journeys[0].classes[0]: class 9 is not defined in classes',
    ],
    [
      {
        classes: [
          { id: 1, label: 'A', type: 'csat' },
          { id: 1, label: 'B', type: 'nps' },
        ],
      },
      'tenants[0].classes[1].id: class 1 is defined twice',
    ],
    [
      { users: [{ name: 'x', scope: 'some' }] },
      'tenants[0].users[0].scope: must be "all" or { "stores": [ids], "groups": [ids], "regions"?: [ids] }',
    ],
    [{ colour: 'red' }, 'tenants[0].colour: is not a known field'],
    [{ privacy: { retentionDays: 0 } }, 'tenants[0].privacy.retentionDays: must be at least 1'],
    [{ privacy: { retentionDays: 2.5 } }, 'tenants[0].privacy.retentionDays: must be an integer'],
    [{ privacy: { keepDays: 30 } }, 'tenants[0].privacy.keepDays: is not a known field'],
    // The slices' shared field rules (shared/settings/fields.ts) say the same thing wherever they are used.
    [
      { journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['sms'], resurveyWindowDays: 0 }] },
      'tenants[0].journeys[0].resurveyWindowDays: must be at least 1',
    ],
    [
      { journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['sms'], resurveyWindowDays: 3651 }] },
      'tenants[0].journeys[0].resurveyWindowDays: must be at most 3650',
    ],
    [{ analytics: { comments: 'yes' } }, 'tenants[0].analytics.comments: must be true or false'],
    [{ digests: { daily: 1 } }, 'tenants[0].digests.daily: must be true or false'],
    [
      { themes: [{ slug: 'fila', name: { 'pt-BR': 'Fila', es: 'Cola', en: 'Queue' }, keywords: {}, exclude: { en: 'box' } }] },
      'tenants[0].themes[0].exclude.en: must be a list of words or phrases',
    ],
    [{ id: '7' }, 'tenants[0].id: must be a number'],
    [{ locale: 'pt' }, 'tenants[0].locale: must be one of pt-BR, es, en'],
    [{ classes: [{ id: 1, label: 'A', type: 'csat', question: { fr: 'Q?' } }] }, 'tenants[0].classes[0].question.fr: is not a known field'],
    [
      { journeys: [{ id: 1, slug: 'loja', indicator: 'nps', classes: [1], channels: ['sms'], followUp: { promoter: { es: '' } } }] },
      'tenants[0].journeys[0].followUp.promoter.es: must not be empty',
    ],
    [
      {
        delivery: {
          whatsapp: { phoneNumberId: 'pn', template: 't', language: 'pt_BR', templates: { en: { template: 't', language: 'english' } } },
        },
      },
      'tenants[0].delivery.whatsapp.templates.en.language: must be a language code such as pt_BR',
    ],
    [
      { delivery: { webhooks: [{ url: 'https://hooks.example.com/a', includeComment: 'yes' }] } },
      'tenants[0].delivery.webhooks[0].includeComment: must be true or false',
    ],
    [
      {
        delivery: { webhooks: [{ url: 'https://hooks.example.com/a' }, { url: 'https://hooks.example.com/a', events: ['survey.failed'] }] },
      },
      'tenants[0].delivery.webhooks[1]: lists a URL twice (an endpoint is known by its URL)',
    ],
    [
      { keys: [{ scope: 'public', value: '${UNSET_VARIABLE_FOR_TEST}' }] },
      'tenants[0].keys[0].value: environment variable UNSET_VARIABLE_FOR_TEST is not set and has no default',
    ],
  ])('reject %o naming the field', (overrides, message) => {
    expect(() => parseTenantFile(tenant(overrides), {})).toThrow(message);
  });

  it('reject a file that is not JSON', () => {
    expect(() => parseTenantFile('{ tenants: ', {})).toThrow(/not valid JSON/);
  });
});
