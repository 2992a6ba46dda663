import type { Locale } from '../locale.js';

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

/** At most this many themes a tenant, of at most this many keywords per language. */
export const MAX_THEMES = 100;
export const MAX_KEYWORDS = 50;
/**
 * A keyword's most characters. A theme is one item of the configuration partition, read with it in one Query: 100
 * themes of 3 x 50 keywords of 40 characters are 600 kB at most, within one Query's 1 MB page (and each theme far
 * within an item's 400 kB).
 */
export const MAX_KEYWORD_LENGTH = 40;
/**
 * The themes one comment counts in, at most. The analysis is one transaction (DynamoDB: 100 items): per theme 8
 * counters (store, employee, journey, store in journey; day and month) and its entry in the theme's list, and a
 * correction takes back as many as it adds: (5 + 5) x 9, the two sentiment entries and the answer make 93.
 */
export const MAX_THEMES_PER_COMMENT = 5;

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

const bySlug = (themes: readonly Theme[]) => JSON.stringify([...themes].sort((a, b) => a.slug.localeCompare(b.slug)));

/** Whether a list of themes is the defaults (as the configuration reads them back: in slug order). */
export const areDefaultThemes = (themes: readonly Theme[]): boolean => bySlug(themes) === bySlug(DEFAULT_THEMES);
