import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import { NotFoundError, ValidationError } from '../../shared/errors.js';
import { kioskDay } from '../../shared/in-store/kiosk.js';
import type { KioskView, NewKioskBody } from '../../shared/in-store/kiosk-schema.js';
import type { Locale } from '../../shared/locale.js';
import { qrSvg } from '../../shared/in-store/qr-draw.js';
import { sealer } from '../../shared/sealed.js';
import type { Settings } from '../../shared/tenants/config-schema.js';
import { adminInStorePage } from '../../shared/workspace/admin-in-store-page.js';

/* Issue 50: the in-store page (/app/admin/qr), as a function of the tenant's settings, stores and kiosks. */

const ADMIN: UserRecord = { name: 'admin@aurora.test', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'admin' };
const URL_OF = 'https://surveys.example.com/q/abc';
const KIOSK: KioskView = {
  id: '0123456789abcdef',
  name: 'Saída',
  store: 2,
  journey: 'loja',
  employee: 7,
  daily_cap: 300,
  created_at: '2026-03-02T15:00:00.000Z',
  revoked_at: null,
};

function tenant(locale: Locale = 'pt-BR', user: UserRecord = ADMIN) {
  const settings = {
    locale,
    timeZone: 'America/Sao_Paulo',
    delivery: {},
    brand: { name: 'Café Aurora', colour: '#7a1f5c', logo: { file: 'abc.png' } },
    journeys: [{ id: 1, slug: 'loja', name: 'Loja', indicator: 'nps', questions: { 'pt-BR': 'Você recomendaria a {loja}?' } }],
  } as unknown as Settings;
  const held = { registered: [] as NewKioskBody[], revoked: [] as string[], targets: [] as unknown[] };
  const ports = {
    settings: async () => settings,
    storeChoices: async () =>
      new Map([
        [2, 'Loja Centro'],
        [3, 'Loja Norte'],
      ]),
    storeNames: async (_tenant: number, ids: number[]) => new Map(ids.filter((id) => id < 4).map((id) => [id, `Loja ${id}`])),
    qrUrl: async (_tenant: number, target: { store: number }) => {
      held.targets.push(target);
      if (target.store > 3) throw new NotFoundError('Store not found.');
      return URL_OF;
    },
    qrSvg,
    kiosks: {
      list: async () => [KIOSK],
      register: async (_tenant: number, body: NewKioskBody) => {
        if (body.store > 3)
          throw new ValidationError('Unknown store or journey.', [{ path: 'store', message: 'is not a store of this tenant' }]);
        held.registered.push(body);
        return { ...KIOSK, token: 'tok', url: 'https://surveys.example.com/k/tok' };
      },
      today: async (_tenant: number, ids: string[], zone: string) => new Map(ids.map((id) => [id, zone === 'America/Sao_Paulo' ? 3 : -1])),
      revoke: async (_tenant: number, id: string) => {
        held.revoked.push(id);
        return KIOSK;
      },
    },
    shownOnce: { sealer: sealer(() => 'a-test-secret-of-some-length', 'shown-once/v1'), spend: async () => true },
  };
  const request = (query: Record<string, string> = {}, form: [string, string][] = [], shownOnce?: string) => ({
    tenantId: 1,
    user,
    base: '/dev',
    query,
    form: new URLSearchParams(form),
    shownOnce,
  });
  const page = adminInStorePage(ports);
  return {
    held,
    show: (query: Record<string, string> = {}, shownOnce?: string) => page.showInStore(request(query, [], shownOnce)),
    post: (form: [string, string][]) => page.saveInStore(request({}, form)),
  };
}

describe("the in-store page's poster", () => {
  it("shows the first store's poster: the logo, the brand's colour, the question, the code drawn inline, the store", async () => {
    const { held, show } = tenant();
    const { status, html } = await show();
    expect(status).toBe(200);
    expect(held.targets).toEqual([{ store: 2, journey: 'loja', employee: undefined }]);
    expect(html).toContain('<section class="poster poster-a4" id="poster" aria-labelledby="poster-question">');
    expect(html).toContain('<rect width="10" height="1" fill="#7a1f5c"/>');
    expect(html).toContain('<img class="poster-logo" src="/dev/brand/logos/abc.png" alt="Café Aurora">');
    expect(html).toContain('<h2 class="poster-question" id="poster-question">Você recomendaria a Café Aurora?</h2>');
    expect(html).toContain(`<div class="poster-qr" role="img" aria-label="Código QR que abre a pesquisa: ${URL_OF}"><svg `);
    expect(html).toContain('<p class="poster-store">Loja 2</p>');
    expect(html).toContain('Aponte a câmera do celular para o código e responda');
    // The page's own controls are left out of print.
    expect(html).toMatch(/<div class="no-print"><h1>Na loja<\/h1>/);
    expect(html).toContain('<section class="no-print" aria-labelledby="kiosks-title">');
  });

  it('lays the poster out for A6 when asked, for the store, journey and employee chosen', async () => {
    const { held, show } = tenant('es');
    const { html } = await show({ store: '3', journey: 'loja', employee: '9', size: 'a6' });
    expect(held.targets).toEqual([{ store: 3, journey: 'loja', employee: 9 }]);
    expect(html).toContain('class="poster poster-a6"');
    expect(html).toContain('<input type="radio" name="size" value="a6" checked> A6 (mostrador)');
    expect(html).toContain('<option value="3" selected>Loja Norte</option>');
    expect(html).toContain('solo sale el cartel, en una hoja A6');
  });

  it('names what is wrong next to its field and draws no poster', async () => {
    const { show } = tenant();
    const { html } = await show({ store: '9', journey: 'nope', employee: 'x' });
    expect(html).not.toContain('class="poster ');
    expect(html).toContain('<p class="field-error" id="p-journey-error">não é uma jornada da empresa</p>');
    expect(html).toContain('<p class="field-error" id="p-employee-error">');
    const store = await tenant().show({ store: '9', journey: 'loja' });
    expect(store.html).toContain('<p class="field-error" id="p-store-error">não é uma loja da empresa</p>');
  });
});

describe("the in-store page's kiosks", () => {
  it('is refused to a manager who is not a tenant admin, who registers and revokes nothing', async () => {
    const t = tenant('pt-BR', { ...ADMIN, role: 'member' });
    expect((await t.show()).status).toBe(403);
    const posted = await t.post([
      ['action', 'revoke'],
      ['id', KIOSK.id],
      ['confirm', 'yes'],
    ]);
    expect(posted.status).toBe(403);
    expect([t.held.revoked, t.held.targets]).toEqual([[], []]);
  });

  it('lists each kiosk with its store, journey, employee, answers today against its daily cap, and registration', async () => {
    const { html } = await tenant().show();
    expect(html).toContain('<h3>Saída <code>0123456789abcdef</code></h3>');
    expect(html).toContain('<p>Loja Centro · loja · funcionário 7 · 3 respostas hoje · no máximo 300 respostas por dia · cadastrado em ');
    expect(html).toContain('<summary>Revogar<span class="visually-hidden"> Saída</span></summary>');
  });

  it("registers one through the kiosks' service, then shows its address once", async () => {
    const t = tenant();
    const done = await t.post([
      ['action', 'register'],
      ['name', 'Caixa'],
      ['store', '3'],
      ['journey', 'loja'],
      ['employee', ''],
      ['daily_cap', '250'],
    ]);
    expect(done.status).toBe(303);
    expect(done.location).toBe('/dev/app/admin/qr?done=registered#kiosks-title');
    expect(t.held.registered).toEqual([{ name: 'Caixa', store: 3, journey: 'loja', daily_cap: 250 }]);
    const cookie = done.cookies![0]!.split(';')[0]!.split('=').slice(1).join('=');
    const shown = await t.show({ done: 'registered' }, cookie);
    expect(shown.html).toContain(
      '<a href="https://surveys.example.com/k/tok"><code id="kiosk-url" class="secret">https://surveys.example.com/k/tok</code></a>',
    );
    // Once: without the cookie, the page says it was shown.
    expect((await t.show({ done: 'registered' })).html).toContain('O endereço do quiosque foi mostrado uma vez');
  });

  it("refuses a bad kiosk with each field's error next to it, in the tenant's language, and registers nothing", async () => {
    const t = tenant('es');
    const refused = await t.post([
      ['action', 'register'],
      ['name', ''],
      ['store', '2'],
      ['journey', 'loja'],
      ['daily_cap', '0'],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<p class="field-error" id="k-name-error">');
    expect(refused.html).toContain('<p class="field-error" id="k-daily_cap-error">debe ser como mínimo 1');
    expect(refused.html).toContain('<input id="k-daily_cap" name="daily_cap" value="0"');
    const unknown = await t.post([
      ['action', 'register'],
      ['name', 'Caixa'],
      ['store', '8'],
      ['journey', 'loja'],
      ['daily_cap', '10'],
    ]);
    expect(unknown.html).toContain('<p class="field-error" id="k-store-error">no es una tienda de la empresa</p>');
    expect(t.held.registered).toEqual([]);
  });

  it('revokes one only once its confirmation is ticked', async () => {
    const t = tenant();
    const unconfirmed = await t.post([
      ['action', 'revoke'],
      ['id', KIOSK.id],
    ]);
    expect(unconfirmed.status).toBe(400);
    expect(t.held.revoked).toEqual([]);
    const done = await t.post([
      ['action', 'revoke'],
      ['id', KIOSK.id],
      ['confirm', 'yes'],
    ]);
    expect(done.location).toBe('/dev/app/admin/qr?done=revoked');
    expect(t.held.revoked).toEqual([KIOSK.id]);
  });
});

describe("a kiosk's day", () => {
  it("is the date in the tenant's zone, its counter kept until after that day ends anywhere", () => {
    // 02:00 UTC on 3 March is still 2 March in São Paulo (UTC-3), already 3 March in Tokyo.
    const at = new Date('2026-03-03T02:00:00Z');
    const saoPaulo = kioskDay(at, 'America/Sao_Paulo');
    expect(saoPaulo.window).toBe(Date.parse('2026-03-02') / 86_400_000);
    expect(kioskDay(at, 'Asia/Tokyo').window).toBe(saoPaulo.window + 1);
    expect(saoPaulo.endsAt).toBeGreaterThan(Date.parse('2026-03-03T03:00:00Z') + 12 * 3600_000);
  });
});
