import { createHash } from 'node:crypto';
import { IntlMessageFormat } from 'intl-messageformat';
import { describe, expect, it } from 'vitest';
import { catalogueOf, chooseLocale, localeOfRequest, translator, type MessageKey } from '../../shared/i18n/messages.js';
import { formatMessage, parseMessage } from '../../shared/i18n/message-format.js';
import { LOCALES } from '../../shared/locale.js';
import { surveyEmail, surveySms } from '../../shared/surveys/compose.js';
import { messagePage, PLAIN_POLICY, STYLE_HASH, surveyPage, unsubscribePage } from '../../shared/surveys/page-html.js';
import { bucketOf } from '../../shared/surveys/questions.js';

/** The arguments a message takes, with their kinds (plain, number, select, plural), from its parsed form. */
function argumentsOf(message: string, locale: string): string[] {
  const found = new Set<string>();
  type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }> };
  const walk = (nodes: Node[]) =>
    nodes.forEach((node) => {
      // 1 argument, 2 number, 3 date, 4 time, 5 select, 6 plural (intl-messageformat's TYPE enum).
      if (node.type >= 1 && node.type <= 6) found.add(`${String(node.value)}:${node.type}`);
      Object.values(node.options ?? {}).forEach((option) => walk(option.value));
    });
  walk(new IntlMessageFormat(message, locale).getAst() as Node[]);
  return [...found].sort();
}

const CATALOGUES = { 'pt-BR': catalogueOf('pt-BR'), es: catalogueOf('es'), en: catalogueOf('en') };

describe('the message catalogues', () => {
  it('every catalogue has every key of pt-BR, no other, each with the same arguments of the same kinds', () => {
    const reference = CATALOGUES['pt-BR'];
    for (const locale of LOCALES) {
      const catalogue = CATALOGUES[locale];
      expect(Object.keys(catalogue).sort(), locale).toEqual(Object.keys(reference).sort());
      for (const key of Object.keys(reference) as MessageKey[]) {
        expect(argumentsOf(catalogue[key], locale), `${locale} ${key}`).toEqual(argumentsOf(reference[key], 'pt-BR'));
        expect(catalogue[key].trim(), `${locale} ${key}`).not.toBe('');
      }
    }
  });

  it('formats every message of every catalogue exactly as intl-messageformat does, each argument through values of every kind', () => {
    // Each argument is varied in turn (the others at their first value): numbers across plural categories and
    // grouping, every option of a select and one it lacks, text with ICU's special characters.
    const NUMBERS = [0, 1, 2, 5, 21, 1000, 1.5, 1234567];
    const TEXTS = ['Ana', "O'Brien {x} # <b>", ''];
    let compared = 0;
    for (const locale of LOCALES)
      for (const [key, message] of Object.entries(CATALOGUES[locale])) {
        const candidates: Record<string, (string | number)[]> = {};
        type Node = { type: number; value?: unknown; options?: Record<string, { value: Node[] }> };
        const walk = (nodes: Node[]) =>
          nodes.forEach((node) => {
            const name = String(node.value);
            if (node.type === 1) candidates[name] ??= TEXTS;
            if (node.type === 2 || node.type === 6) candidates[name] = NUMBERS;
            if (node.type === 5) candidates[name] = [...Object.keys(node.options ?? {}), 'unlisted'];
            Object.values(node.options ?? {}).forEach((option) => walk(option.value));
          });
        walk(new IntlMessageFormat(message, locale).getAst() as Node[]);
        const first = Object.fromEntries(Object.entries(candidates).map(([name, values]) => [name, values[0]!]));
        const parts = parseMessage(message);
        for (const [name, values] of [['', [undefined]] as const, ...Object.entries(candidates)])
          for (const value of values) {
            const args = name ? { ...first, [name]: value! } : first;
            const theirs = String(new IntlMessageFormat(message, locale).format(args));
            expect(formatMessage({ parts, locale, values: args }), `${locale} ${key} ${JSON.stringify(args)}`).toBe(theirs);
            compared++;
          }
      }
    expect(compared).toBeGreaterThan(3 * Object.keys(CATALOGUES['pt-BR']).length);
  });

  it("reads ICU's quoting as intl-messageformat does, and refuses what it does not format", () => {
    for (const message of ["It's '{'literal'}' and ''quoted''", "'#' {n, plural, one {'#' is #} other {# ''#''}}", 'a } b'])
      for (const n of [1, 3])
        expect(formatMessage({ parts: parseMessage(message), locale: 'en', values: { n } }), message).toBe(
          String(new IntlMessageFormat(message, 'en').format({ n })),
        );
    for (const message of [
      '{when, date}',
      '{n, number, percent}',
      '{n, plural, offset:1 other {#}}',
      '{x, select, yes {y}}',
      'a <b>c</b>',
      '{open',
    ])
      expect(() => parseMessage(message), message).toThrow();
  });

  it('formats plurals and numbers by the rules of each language', () => {
    expect(translator('pt-BR')('score.stars', { count: 1 })).toBe('1 estrela');
    expect(translator('pt-BR')('score.stars', { count: 5 })).toBe('5 estrelas');
    expect(translator('es')('score.stars', { count: 1 })).toBe('1 estrella');
    expect(translator('en')('score.stars', { count: 5 })).toBe('5 stars');
    expect(translator('pt-BR')('page.commentHint', { max: 1000 })).toBe('Até 1.000 caracteres.');
    expect(translator('en')('page.commentHint', { max: 1000 })).toBe('Up to 1,000 characters.');
  });

  it('greets by name or without one', () => {
    expect(translator('es')('email.greeting', { named: 'yes', name: 'Ana' })).toBe('¡Hola, Ana!');
    expect(translator('es')('email.greeting', { named: 'no', name: '' })).toBe('¡Hola!');
  });

  it("chooses a survey's language: the customer's, else the journey's, else the tenant's, else pt-BR", () => {
    expect(chooseLocale('en', 'es', 'pt-BR')).toBe('en');
    expect(chooseLocale(undefined, 'es', 'en')).toBe('es');
    expect(chooseLocale(undefined, undefined, 'en')).toBe('en');
    expect(chooseLocale(undefined, null, undefined)).toBe('pt-BR');
  });

  it('speaks the language a browser asks for when no survey says, by quality, else pt-BR', () => {
    expect(localeOfRequest('es-AR,es;q=0.9,en;q=0.8')).toBe('es');
    expect(localeOfRequest('fr-FR, en;q=0.5, es;q=0.7')).toBe('es');
    expect(localeOfRequest('en-US')).toBe('en');
    expect(localeOfRequest('pt-PT')).toBe('pt-BR');
    expect(localeOfRequest('de, es;q=0')).toBe('pt-BR');
    expect(localeOfRequest(undefined)).toBe('pt-BR');
  });

  it('escapes names in HTML in every language, and says the page and e-mail language', () => {
    for (const locale of LOCALES) {
      const mail = surveyEmail({
        customerName: '<img src=x onerror=alert(1)> Silva',
        brand: { name: 'Loja <b>&</b> "Cia"' },
        journey: { indicator: 'ces' },
        locale,
        link: 'https://x.example/s/tok',
        unsubscribeLink: 'https://x.example/s/tok/unsubscribe',
      });
      expect(mail.html).toContain(`<html lang="${locale}">`);
      expect(mail.html).not.toMatch(/<img src=x|<b>/);
      expect(mail.html).toContain('Loja &lt;b&gt;&amp;&lt;/b&gt; &quot;Cia&quot;');
      const page = messagePage({ locale, brand: { name: '<script>x</script>' } }, { title: 'T', text: 'x' });
      expect(page.html).toContain(`<html lang="${locale}">`);
      expect(page.html).not.toContain('<script>');
    }
  });

  it('keeps the SMS in one GSM-7 segment in every language', () => {
    const link = `https://x.example/s/${'A'.repeat(44)}`;
    for (const locale of LOCALES) {
      const text = surveySms({ company: 'Ótica Visão & Cia', link, locale });
      expect(text.length).toBeLessThanOrEqual(160);
      expect(text).toContain(link);
    }
    expect(surveySms({ company: 'Loja', link, locale: 'es' })).toContain('¿como fue su experiencia?');
  });

  it("puts a score in its bucket: NPS's detractors, passives and promoters, thirds of the other scales", () => {
    expect([0, 6, 7, 8, 9, 10].map((s) => bucketOf('nps', s))).toEqual([
      'detractor',
      'detractor',
      'passive',
      'passive',
      'promoter',
      'promoter',
    ]);
    expect([1, 2, 3, 4, 5].map((s) => bucketOf('csat', s))).toEqual(['low', 'low', 'mid', 'high', 'high']);
    expect([1, 3, 4, 5, 6, 7].map((s) => bucketOf('ces', s))).toEqual(['low', 'low', 'mid', 'mid', 'high', 'high']);
    expect([0, 1].map((s) => bucketOf('binary', s))).toEqual(['low', 'high']);
  });
});

describe('the brand on pages and e-mail', () => {
  const view = (brand: { name: string; colour?: string; logoUrl?: string }) =>
    surveyPage({
      locale: 'en',
      brand,
      token: 'tok',
      customerFirstName: '',
      question: { field: 'score', legend: 'Q?', indicator: 'nps', chosen: undefined, optional: false },
      followUps: [],
      classes: [],
      comment: '',
      problems: [],
    });

  it("shows the name, the logo as header and favicon, and the colour; the policy admits exactly the logo's origin and the colour's sheet", () => {
    const page = view({ name: 'Ótica Visão', colour: '#7c2d12', logoUrl: 'https://cdn.example/t/7/logo.png' });
    expect(page.html).toContain('<span>Ótica Visão</span>');
    expect(page.html).toContain('<img src="https://cdn.example/t/7/logo.png" alt=""');
    expect(page.html).toContain('<link rel="icon" href="https://cdn.example/t/7/logo.png">');
    expect(page.html).toContain('<style>:root{--brand:#7c2d12}</style>');
    const sheet = `'sha256-${createHash('sha256').update(':root{--brand:#7c2d12}').digest('base64')}'`;
    expect(page.policy).toContain(`style-src ${STYLE_HASH} ${sheet};`);
    expect(page.policy).toContain("img-src 'self' data: https://cdn.example;");
  });

  it('ignores a colour or logo it cannot use safely, and keeps the default icon and policy', () => {
    const page = view({ name: 'X', colour: 'red;}body{display:none', logoUrl: 'javascript:alert(1)' });
    expect(page.html).not.toContain('--brand:red');
    expect(page.html).not.toContain('javascript:');
    expect(page.policy).toBe(PLAIN_POLICY);
    expect(view({ name: 'X', logoUrl: 'http://evil.example/x.png' }).html).not.toContain('evil.example');
  });

  it("names the company on the unsubscribe page instead of 'this company'", () => {
    for (const [locale, text] of [
      ['pt-BR', 'Você deixará de receber pesquisas de satisfação de Ótica Visão.'],
      ['es', 'Dejará de recibir encuestas de satisfacción de Ótica Visão.'],
      ['en', 'You will no longer receive satisfaction surveys from Ótica Visão.'],
    ] as const)
      expect(unsubscribePage({ locale, brand: { name: 'Ótica Visão' } }, 'tok').html).toContain(text);
  });

  it('paints the e-mail in the colour and heads it with the logo', () => {
    const mail = surveyEmail({
      customerName: null,
      brand: { name: 'Ótica Visão', colour: '#7c2d12', logoUrl: 'https://cdn.example/t/7/logo.png' },
      journey: { indicator: 'csat' },
      locale: 'pt-BR',
      link: 'https://x.example/s/tok',
      unsubscribeLink: 'https://x.example/s/tok/unsubscribe',
    });
    expect(mail.html).toContain('background:#7c2d12');
    expect(mail.html).toContain('<img src="https://cdn.example/t/7/logo.png"');
    expect(mail.subject).toBe('Como foi sua experiência com Ótica Visão?');
  });
});

describe("the webhooks page and the export's help in the manager's words", () => {
  it('say no English "endpoint" in Portuguese or Spanish, and no HTTP header anywhere', () => {
    for (const locale of ['pt-BR', 'es'] as const)
      for (const [key, text] of Object.entries(catalogueOf(locale)))
        if (key.startsWith('admin.webhooks.') || key.startsWith('admin.chat.')) expect(text, `${locale} ${key}`).not.toMatch(/endpoint/i);
    for (const locale of LOCALES)
      expect(catalogueOf(locale)['answers.export.hint'], locale).not.toMatch(/\{header\}|Link|cabecera|cabeçalho|header/i);
  });
});
