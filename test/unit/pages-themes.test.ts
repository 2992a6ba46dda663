import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../shared/access/ports.js';
import type { Locale } from '../../shared/locale.js';
import type { ConfigDocument } from '../../shared/tenants/config-schema.js';
import { DEFAULT_THEMES, MAX_KEYWORD_LENGTH, MAX_KEYWORDS, type Theme } from '../../shared/themes/theme.js';
import type { Suggestion } from '../../shared/themes/suggestions.js';
import { changeConfig } from '../../shared/workspace/admin-config-form.js';
import { adminThemesForm, adminThemesPage, keywordsOf, slugOf } from '../../shared/workspace/admin-themes-page.js';

/* Issue 47: the admin themes page, as a function of the configuration and the period's suggestions. */

const ADMIN: UserRecord = { name: 'admin@aurora.test', scope: 'all', tokenHash: 'x', created_at: '2026-01-01T00:00:00Z', role: 'admin' };
/** A configuration as the service reads it: the defaults when the tenant has none of its own. */
const BASE = { name: 'Café Aurora', journeys: [], classes: [], themes: [...DEFAULT_THEMES] } as unknown as ConfigDocument;
const PARKING: Theme = {
  slug: 'parking',
  name: { 'pt-BR': 'Estacionamento', es: 'Aparcamiento', en: 'Parking' },
  keywords: { 'pt-BR': ['estacionamento', 'vaga'], es: ['aparcamiento'], en: [] },
};
const SUGGESTIONS: Suggestion[] = [{ phrase: 'app travando', language: 'pt', count: 7, negative: 5, examples: [41, 42] }];

/** The page's ports over one configuration held in memory: what a save writes replaces it. */
function tenant(config: ConfigDocument, locale: Locale = 'pt-BR') {
  const held = { config, version: 3, writes: 0 };
  const ports = {
    settings: async () => ({ locale, delivery: {}, brand: { name: 'Café Aurora' } }),
    readConfig: async () => ({ config: held.config, version: held.version }),
    replaceConfig: async (_tenant: number, { config: next }: { config: ConfigDocument }) => {
      Object.assign(held, { config: next, version: held.version + 1, writes: held.writes + 1 });
      return { version: held.version, changes: [] };
    },
    suggestions: async () => SUGGESTIONS,
  };
  const request = (form: [string, string][] = [], query: Record<string, string> = {}) => ({
    tenantId: 1,
    user: ADMIN,
    base: '',
    query,
    form: new URLSearchParams(form),
  });
  const show = async (query: Record<string, string> = {}) => (await adminThemesPage(ports).showThemes(request([], query))).html!;
  const post = (form: [string, string][]) => adminThemesForm(ports, changeConfig).saveTheme(request(form));
  return { held, show, post };
}

describe('the themes page', () => {
  it('lists the default themes, marked as such, with their names and keywords in the three languages', async () => {
    const page = await tenant(BASE).show();
    expect(page).toContain('Estes são os temas padrão');
    expect(page).toContain('<h3>Espera <code>wait</code></h3>');
    expect(page).toContain('<span lang="es"><strong>Espera</strong> — fila, cola, espera');
    expect(page).toContain('<span lang="en"><strong>Waiting</strong> — queue, line, wait');
    expect(page).toContain('aria-current="page">Temas</a>');
  });

  it("lists the tenant's own themes, not as defaults, and fills the form with the one edited", async () => {
    const page = await tenant({ ...BASE, themes: [PARKING] }, 'es').show({ edit: 'parking' });
    expect(page).not.toContain('predeterminados');
    expect(page).not.toContain('<code>wait</code>');
    expect(page).toContain('<h3>Aparcamiento <code>parking</code></h3>');
    expect(page).toContain('<span lang="en"><strong>Parking</strong> — ninguna</span>');
    expect(page).toContain('Editar el tema Aparcamiento');
    expect(page).toContain(
      '<textarea id="t-keywords-pt-BR" name="keywords.pt-BR" rows="4" lang="pt-BR" aria-describedby="t-keywords-hint">estacionamento\nvaga</textarea>',
    );
  });

  it("shows each theme's exclusions in their language after its keywords, and fills the edit form's exclusion fields", async () => {
    const { show } = tenant(BASE);
    const page = await show();
    const edited = await show({ edit: 'wait' });
    expect(page).toContain(
      '<br><span class="hint">Não conta na frase com:</span> <span lang="pt-BR">esperava, esperavamos, esperado, esperada, esperar mais, na linha</span></li>',
    );
    expect(page).toContain('<span lang="en">expected, in line with, online</span>');
    // A language without exclusions says nothing of them (staff has none in Spanish).
    expect(page).toMatch(/<span lang="es"><strong>Personal<\/strong> — [^<]*<\/span><\/li>/);
    expect(edited).toContain(
      '<textarea id="t-exclude-pt-BR" name="exclude.pt-BR" rows="2" lang="pt-BR" aria-describedby="t-exclude-hint">esperava\nesperavamos\nesperado\nesperada\nesperar mais\nna linha</textarea>',
    );
    expect(edited).toContain(
      '<textarea id="t-exclude-es" name="exclude.es" rows="2" lang="es" aria-describedby="t-exclude-hint">esperaba\nesperado</textarea>',
    );
  });

  it('shows each suggestion with its count and an example, a theme prefilled from the phrase or a keyword of a theme', async () => {
    const page = await tenant(BASE).show();
    expect(page).toContain('<h3 lang="pt-BR">app travando</h3>');
    expect(page).toContain('7 comentários · Exemplo: resposta 41');
    expect(page).toContain(
      '<input type="hidden" name="slug" value="app-travando"><input type="hidden" name="name.pt-BR" value="app travando">',
    );
    expect(page).toContain('<input type="hidden" name="keywords.pt-BR" value="app travando">');
    expect(page).toContain(
      '<label for="s-0-theme">Adicionar como palavra-chave a</label> <select id="s-0-theme" name="theme"><option value="wait">Espera</option>',
    );
  });
});

describe('the themes form', () => {
  it('reads keywords one a line or by commas, each once, and makes a slug of a phrase', () => {
    expect(keywordsOf(' fila \n\nespera, demora\nfila')).toEqual(['fila', 'espera', 'demora']);
    expect(slugOf('Estacionamento  lotado!')).toBe('estacionamento-lotado');
    expect(slugOf('Ñoño / São João')).toBe('nono-sao-joao');
  });

  it('adds a theme to the defaults, through the version check', async () => {
    const { held, post } = tenant(BASE);
    const saved = await post([
      ['etag', '3'],
      ['slug', 'parking'],
      ['name.pt-BR', 'Estacionamento'],
      ['name.es', 'Aparcamiento'],
      ['name.en', 'Parking'],
      ['keywords.pt-BR', 'estacionamento\nvaga'],
      ['keywords.es', 'aparcamiento'],
      ['keywords.en', ''],
    ]);
    expect([saved.status, saved.location]).toEqual([303, '/app/admin/themes?saved=parking']);
    expect(held.config.themes).toEqual([...DEFAULT_THEMES, PARKING]);
  });

  it('saves exclusions typed one a line or by commas, in each language, and keeps none when all are empty', async () => {
    const { held, post } = tenant({ ...BASE, themes: [PARKING] });
    const form = (exclude: [string, string][]): [string, string][] => [
      ['etag', String(held.version)],
      ['original', 'parking'],
      ['slug', 'parking'],
      ['name.pt-BR', 'Estacionamento'],
      ['name.es', 'Aparcamiento'],
      ['name.en', 'Parking'],
      ['keywords.pt-BR', 'estacionamento\nvaga'],
      ['keywords.es', 'aparcamiento'],
      ...exclude,
    ];
    const saved = await post(
      form([
        ['exclude.pt-BR', ' vaga de emprego \n\nvaga de emprego, vaga preferencial'],
        ['exclude.es', ''],
        ['exclude.en', 'parking ticket'],
      ]),
    );
    const stored = held.config.themes?.[0];
    const cleared = await post(
      form([
        ['exclude.pt-BR', '\n'],
        ['exclude.en', ''],
      ]),
    );

    expect([saved.status, saved.location]).toEqual([303, '/app/admin/themes?saved=parking']);
    expect(stored?.exclude).toEqual({ 'pt-BR': ['vaga de emprego', 'vaga preferencial'], es: [], en: ['parking ticket'] });
    expect(cleared.status).toBe(303);
    expect(held.config.themes).toEqual([PARKING]);
  });

  it("refuses more exclusions than the schema's bound, or a longer one, naming the field; nothing saved", async () => {
    const { held, post } = tenant({ ...BASE, themes: [PARKING] });
    const theme: [string, string][] = [
      ['etag', '3'],
      ['original', 'parking'],
      ['slug', 'parking'],
      ['name.pt-BR', 'Estacionamento'],
      ['name.es', 'Aparcamiento'],
      ['name.en', 'Parking'],
      ['keywords.pt-BR', 'estacionamento'],
    ];
    const many = Array.from({ length: MAX_KEYWORDS + 1 }, (_, i) => `vaga ${i}`).join('\n');
    const tooMany = await post([...theme, ['exclude.pt-BR', many]]);
    const tooLong = await post([...theme, ['exclude.es', `plaza ${'x'.repeat(MAX_KEYWORD_LENGTH)}`]]);

    expect(tooMany.status).toBe(400);
    expect(tooMany.html).toContain(`<li><a href="#t-exclude-pt-BR">Exclusões (Português (Brasil))</a>: use no máximo ${MAX_KEYWORDS}</li>`);
    expect(tooMany.html).toContain('<p class="field-error" id="t-exclude-pt-BR-error">');
    expect(tooMany.html).toContain('aria-invalid="true">vaga 0\nvaga 1');
    expect(tooLong.status).toBe(400);
    expect(tooLong.html).toContain(
      `<li><a href="#t-exclude-es">Exclusões (Espanhol)</a>: use no máximo ${MAX_KEYWORD_LENGTH} caracteres</li>`,
    );
    expect(held.writes).toBe(0);
  });

  it('adds a suggestion as a keyword in its language, and deleting the last theme brings back the defaults', async () => {
    const { held, post } = tenant({ ...BASE, themes: [PARKING] });
    const added = await post([
      ['etag', '3'],
      ['action', 'keyword'],
      ['theme', 'parking'],
      ['phrase', 'sin plazas'],
      ['language', 'es'],
    ]);
    expect(added.status).toBe(303);
    expect(held.config.themes?.[0]?.keywords.es).toEqual(['aparcamiento', 'sin plazas']);
    const deleted = await post([
      ['etag', '4'],
      ['action', 'delete'],
      ['slug', 'parking'],
    ]);
    expect([deleted.status, deleted.location]).toEqual([303, '/app/admin/themes?deleted=parking']);
    expect(held.config.themes).toEqual(DEFAULT_THEMES);
  });

  it("refuses more keywords than the schema's bound, naming the field, and a stale form; nothing saved", async () => {
    const { held, post } = tenant({ ...BASE, themes: [PARKING] }, 'en');
    const many = Array.from({ length: MAX_KEYWORDS + 1 }, (_, i) => `word${i}`).join('\n');
    const refused = await post([
      ['etag', '3'],
      ['original', 'parking'],
      ['slug', 'parking'],
      ['name.pt-BR', 'E'],
      ['name.es', 'A'],
      ['name.en', 'P'],
      ['keywords.en', many],
    ]);
    expect(refused.status).toBe(400);
    expect(refused.html).toContain('<a href="#t-keywords-en">Keywords (English)</a>');
    expect(refused.html).toContain('aria-invalid="true">word0');
    const stale = await post([
      ['etag', '2'],
      ['action', 'delete'],
      ['slug', 'parking'],
    ]);
    expect(stale.status).toBe(409);
    const gone = await post([
      ['etag', '3'],
      ['action', 'delete'],
      ['slug', 'wait'],
    ]);
    expect([gone.status, gone.html]).toEqual([400, expect.stringContaining('That theme no longer exists: nothing was saved.')]);
    expect(held.writes).toBe(0);
  });
});
