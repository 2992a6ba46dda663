import snowball from 'snowball-stemmers';
import * as v from 'valibot';
import { LOCALES, type Locale } from '../locale.js';

/**
 * A theme is the tenant's: a slug, its name and its keywords in each language. A comment mentions a theme when one of
 * the keywords of its language appears in it, ignoring case and accents and taking plurals and common inflections:
 * both sides are cut to their Snowball stems (snowball-stemmers: the Portuguese, Spanish and English stemmers in
 * pure JavaScript, 30 kB, no dependencies). A keyword may be a phrase: its words in the same order.
 */
export interface Theme {
  slug: string;
  name: Record<Locale, string>;
  keywords: Record<Locale, string[]>;
}

/** A theme's slug, as a filter names it: lower-case letters, digits and hyphens. */
export const ThemeSlug = v.pipe(
  v.string(),
  v.regex(/^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/, 'must be a theme slug: 1 to 40 lower-case letters, digits or hyphens'),
);

/** At most this many themes a tenant, of at most this many keywords per language. */
export const MAX_THEMES = 100;
export const MAX_KEYWORDS = 50;
/**
 * The themes one comment counts in, at most. The analysis is one transaction (DynamoDB: 100 items): per theme 8
 * counters (store, employee, journey, store in journey; day and month) and its entry in the theme's list, and a
 * correction takes back as many as it adds: (5 + 5) x 9, the two sentiment entries and the answer make 93.
 */
export const MAX_THEMES_PER_COMMENT = 5;

const STEMMERS: Record<Locale, { stem(word: string): string }> = {
  'pt-BR': snowball.newStemmer('portuguese'),
  es: snowball.newStemmer('spanish'),
  en: snowball.newStemmer('english'),
};

/** The locale of keywords that a language code (Comprehend's: pt, es, en) reads; undefined for any other language. */
export const localeOfLanguage = (language: string): Locale | undefined =>
  LOCALES.find((locale) => locale.slice(0, 2) === language.slice(0, 2).toLowerCase());

/** The words of a text, lower-cased and stemmed in `locale`, then without accents. */
export function stems(text: string, locale: Locale): string[] {
  const stemmer = STEMMERS[locale];
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).map((word) => stemmer.stem(word).normalize('NFD').replace(/\p{M}/gu, ''));
}

const contains = (words: string[], phrase: string[]) =>
  phrase.length > 0 && words.some((_, i) => phrase.every((word, j) => words[i + j] === word));

/**
 * The slugs of the themes a comment mentions, in the themes' order. A comment in a language no theme has keywords for
 * (neither pt, es nor en) is read with the keywords of all three.
 */
export function matchThemes(comment: string, language: string, themes: readonly Theme[]): string[] {
  const locales = localeOfLanguage(language) ? [localeOfLanguage(language)!] : [...LOCALES];
  return themes
    .filter((theme) =>
      locales.some((locale) => {
        const words = stems(comment, locale);
        return theme.keywords[locale].some((keyword) => contains(words, stems(keyword, locale)));
      }),
    )
    .map((theme) => theme.slug)
    .slice(0, MAX_THEMES_PER_COMMENT);
}

/** The themes of a tenant that configures none. */
export const DEFAULT_THEMES: readonly Theme[] = [
  {
    slug: 'wait',
    name: { 'pt-BR': 'Espera', es: 'Espera', en: 'Waiting' },
    keywords: {
      'pt-BR': [
        'fila',
        'espera',
        'esperar',
        'esperei',
        'demora',
        'demorado',
        'demorou',
        'tempo de espera',
        'lentidão',
        'lento',
        'aguardar',
        'aguardei',
      ],
      es: ['fila', 'cola', 'espera', 'esperar', 'esperé', 'demora', 'tardó', 'tiempo de espera', 'lento', 'lentitud', 'aguardar'],
      en: ['queue', 'line', 'wait', 'waiting', 'waited', 'waiting time', 'slow', 'took forever', 'delay at the counter'],
    },
  },
  {
    slug: 'staff',
    name: { 'pt-BR': 'Atendimento', es: 'Personal', en: 'Staff' },
    keywords: {
      'pt-BR': [
        'atendimento',
        'atendente',
        'vendedor',
        'vendedora',
        'funcionário',
        'funcionária',
        'equipe',
        'educado',
        'educada',
        'grosseiro',
        'grosso',
        'simpático',
        'simpática',
        'atencioso',
        'atenciosa',
        'mal educado',
        'prestativo',
      ],
      es: [
        'personal',
        'atención',
        'atendió',
        'vendedor',
        'vendedora',
        'empleado',
        'empleada',
        'dependiente',
        'amable',
        'grosero',
        'maleducado',
        'simpático',
        'atento',
        'servicial',
      ],
      en: [
        'staff',
        'employee',
        'cashier',
        'attendant',
        'salesperson',
        'service',
        'friendly',
        'rude',
        'polite',
        'helpful',
        'knowledgeable',
        'unhelpful',
      ],
    },
  },
  {
    slug: 'price',
    name: { 'pt-BR': 'Preço', es: 'Precio', en: 'Price' },
    keywords: {
      'pt-BR': ['preço', 'caro', 'barato', 'valor', 'desconto', 'promoção', 'oferta', 'custo benefício', 'cobrança'],
      es: ['precio', 'caro', 'barato', 'valor', 'descuento', 'promoción', 'oferta', 'relación calidad precio'],
      en: ['price', 'prices', 'expensive', 'cheap', 'overpriced', 'value', 'discount', 'deal', 'cost', 'value for money'],
    },
  },
  {
    slug: 'cleanliness',
    name: { 'pt-BR': 'Limpeza', es: 'Limpieza', en: 'Cleanliness' },
    keywords: {
      'pt-BR': ['limpeza', 'limpo', 'limpa', 'sujo', 'suja', 'sujeira', 'banheiro', 'cheiro', 'higiene', 'fedor'],
      es: ['limpieza', 'limpio', 'limpia', 'sucio', 'sucia', 'suciedad', 'baño', 'olor', 'higiene'],
      en: ['clean', 'cleanliness', 'dirty', 'filthy', 'messy', 'restroom', 'bathroom', 'smell', 'hygiene'],
    },
  },
  {
    slug: 'product',
    name: { 'pt-BR': 'Produto', es: 'Producto', en: 'Product' },
    keywords: {
      'pt-BR': ['produto', 'qualidade', 'estoque', 'em falta', 'faltando', 'disponível', 'variedade', 'vencido', 'defeito', 'estragado'],
      es: ['producto', 'calidad', 'stock', 'existencias', 'agotado', 'disponible', 'variedad', 'caducado', 'defecto', 'defectuoso'],
      en: ['product', 'quality', 'stock', 'out of stock', 'available', 'availability', 'selection', 'expired', 'defective', 'broken'],
    },
  },
  {
    slug: 'delivery',
    name: { 'pt-BR': 'Entrega', es: 'Entrega', en: 'Delivery' },
    keywords: {
      'pt-BR': ['entrega', 'entregador', 'frete', 'atraso', 'atrasou', 'atrasado', 'chegou', 'prazo', 'transportadora', 'rastreio'],
      es: ['entrega', 'repartidor', 'envío', 'retraso', 'atrasado', 'llegó', 'plazo', 'transportista', 'seguimiento'],
      en: ['delivery', 'delivered', 'shipping', 'shipment', 'courier', 'late', 'arrived', 'tracking', 'on time'],
    },
  },
  {
    slug: 'payment',
    name: { 'pt-BR': 'Pagamento', es: 'Pago', en: 'Payment' },
    keywords: {
      'pt-BR': ['pagamento', 'pagar', 'caixa', 'cartão', 'pix', 'maquininha', 'boleto', 'troco', 'parcelamento', 'cobrança indevida'],
      es: ['pago', 'pagar', 'caja', 'tarjeta', 'datáfono', 'efectivo', 'cambio', 'cuotas', 'cobro'],
      en: ['payment', 'pay', 'checkout', 'till', 'card', 'cash', 'change', 'charged', 'refund'],
    },
  },
  {
    slug: 'digital',
    name: { 'pt-BR': 'Digital', es: 'Digital', en: 'Digital' },
    keywords: {
      'pt-BR': ['site', 'aplicativo', 'app', 'pedido online', 'compra online', 'travando', 'travou', 'login', 'senha', 'carrinho'],
      es: ['sitio web', 'página web', 'aplicación', 'app', 'pedido online', 'compra online', 'se cuelga', 'contraseña', 'carrito'],
      en: ['website', 'site', 'app', 'online order', 'online', 'crashed', 'crashing', 'login', 'password', 'cart'],
    },
  },
];

/** The tenant's themes: its own, or the defaults when it configures none. */
export const themesOf = (settings: { themes?: readonly Theme[] | undefined }): readonly Theme[] => settings.themes ?? DEFAULT_THEMES;
