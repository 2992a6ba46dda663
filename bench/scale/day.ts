/**
 * A large tenant's day, as numbers: how many transactions arrive in each hour, where they go, who answers and when.
 * The simulation (bench/scale/simulate.ts) plays a window of it through the service's adapters.
 */
export interface DayShape {
  transactionsPerDay: number;
  stores: number;
  employeesPerStore: number;
  /** Each journey's share of the transactions, its plan of attempts and its result shards. */
  journeys: JourneyShape[];
  /** The peak hour's rate over the day's average rate. */
  peakFactor: number;
  /** The UTC hour of the peak. */
  peakHour: number;
  /** Surveys answered, of those sent. */
  responseRate: number;
  /** Transactions whose customer is new (created by the transaction). */
  newCustomerShare: number;
  /** Transactions with no contact for their channels (no survey). */
  unreachableShare: number;
  /** Answers that are detractors (0 to 6), promoters (9, 10); the rest passives. */
  detractorShare: number;
  promoterShare: number;
  /** The tenant's retention of personal copies (days), or null. */
  retentionDays: number | null;
}

export interface JourneyShape {
  id: number;
  slug: string;
  share: number;
  indicator: 'nps' | 'csat';
  /** The attempts: the first at once, each later one this many minutes after the one before. */
  attempts: { channel: 'whatsapp' | 'email' | 'sms'; afterMinutes: number }[];
  resultShards: number;
  resurveyWindowDays: number | null;
}

/** The tenant: 10 million transactions a day, 2,000 stores, 20,000 employees, 3 journeys, a 10x peak hour. */
export const LARGE_TENANT: DayShape = {
  transactionsPerDay: 10_000_000,
  stores: 2_000,
  employeesPerStore: 10,
  journeys: [
    {
      id: 1,
      slug: 'loja',
      share: 0.6,
      indicator: 'nps',
      attempts: [
        { channel: 'whatsapp', afterMinutes: 0 },
        { channel: 'email', afterMinutes: 2_880 },
      ],
      resultShards: 32,
      resurveyWindowDays: null,
    },
    {
      id: 2,
      slug: 'ecommerce',
      share: 0.3,
      indicator: 'csat',
      attempts: [
        { channel: 'email', afterMinutes: 0 },
        { channel: 'sms', afterMinutes: 1_440 },
      ],
      resultShards: 16,
      resurveyWindowDays: 30,
    },
    {
      id: 3,
      slug: 'atendimento',
      share: 0.1,
      indicator: 'nps',
      attempts: [{ channel: 'whatsapp', afterMinutes: 0 }],
      resultShards: 8,
      resurveyWindowDays: null,
    },
  ],
  peakFactor: 10,
  peakHour: 18,
  responseRate: 0.3,
  newCustomerShare: 0.5,
  unreachableShare: 0.05,
  detractorShare: 0.15,
  promoterShare: 0.6,
  retentionDays: 365,
};

/**
 * Relative traffic of each UTC hour of a Brazilian retailer's day (quiet at night, rising through the afternoon); the
 * peak hour's weight is set so that its rate is `peakFactor` times the day's average and the day sums to its total.
 */
const HOURLY = [0.05, 0.03, 0.02, 0.02, 0.02, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.3, 1.6, 1.5, 1.4, 1.4, 1.6, 0, 1.8, 1.6, 1.2, 0.7, 0.3];

/** Transactions a second in each UTC hour of the day. */
export function hourlyRates(shape: DayShape): number[] {
  const average = shape.transactionsPerDay / 86_400;
  const peak = average * shape.peakFactor;
  const rest = shape.transactionsPerDay - peak * 3_600;
  const weights = HOURLY.map((weight, hour) => (hour === shape.peakHour ? 0 : weight));
  const sum = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight, hour) => (hour === shape.peakHour ? peak : (rest * weight) / sum / 3_600));
}

/** A small deterministic generator (mulberry32), so that a run can be repeated exactly. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** How many events of a given rate fall in one second (Poisson, by Knuth's method for small rates, else normal). */
export function arrivals(rate: number, next: () => number): number {
  if (rate < 30) {
    const limit = Math.exp(-rate);
    let k = 0;
    for (let p = next(); p > limit; p *= next()) k++;
    return k;
  }
  const normal = Math.sqrt(-2 * Math.log(next() || 1e-12)) * Math.cos(2 * Math.PI * next());
  return Math.max(0, Math.round(rate + Math.sqrt(rate) * normal));
}

/** Picks an index by weight, from cumulative weights. */
export function pick(cumulative: number[], next: () => number): number {
  const target = next() * cumulative.at(-1)!;
  let low = 0;
  let high = cumulative.length - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (cumulative[middle]! < target) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Store sizes as retail chains have them: a few flagships, many small stores (weights falling as 1/sqrt(rank)). */
export function storeWeights(stores: number): number[] {
  let sum = 0;
  return Array.from({ length: stores }, (_, i) => (sum += 1 / Math.sqrt(i + 1)));
}

/**
 * When answers come, in seconds after the survey was sent: most within the first hour, a long tail over the day. The
 * share of a second's answers whose survey went out `ago` seconds before, as a discrete distribution.
 */
export const ANSWER_DELAYS: { seconds: number; share: number }[] = [
  { seconds: 60, share: 0.25 },
  { seconds: 300, share: 0.25 },
  { seconds: 1_800, share: 0.2 },
  { seconds: 7_200, share: 0.15 },
  { seconds: 21_600, share: 0.15 },
];

/**
 * First names of Brazilian customers with their share of the population (IBGE, Censo 2010: Maria 6.2%, José 3.0%...);
 * the rest spread over common names. Customer names are indexed by their first two letters (gsi3), so the share of
 * "ma" (Maria, Marcos, Marcelo, Mariana, Matheus, Márcia: about 9%) is what that index's hottest partition takes.
 */
const NAMES: [string, number][] = [
  ['Maria', 6.2],
  ['José', 3.0],
  ['Ana', 1.6],
  ['João', 1.6],
  ['Antônio', 1.3],
  ['Francisco', 0.9],
  ['Carlos', 0.8],
  ['Paulo', 0.75],
  ['Pedro', 0.64],
  ['Lucas', 0.6],
  ['Luiz', 0.58],
  ['Marcos', 0.58],
  ['Luis', 0.5],
  ['Gabriel', 0.49],
  ['Rafael', 0.43],
  ['Francisca', 0.38],
  ['Daniel', 0.37],
  ['Marcelo', 0.36],
  ['Bruno', 0.35],
  ['Eduardo', 0.33],
  ['Mariana', 0.3],
  ['Matheus', 0.3],
  ['Márcia', 0.3],
  ['Felipe', 0.3],
  ['Raimundo', 0.3],
  ['Rodrigo', 0.3],
];
const OTHERS = [
  'Adriana',
  'Aline',
  'Beatriz',
  'Camila',
  'Cláudia',
  'Diego',
  'Débora',
  'Elaine',
  'Fernanda',
  'Fábio',
  'Gustavo',
  'Helena',
  'Igor',
  'Isabela',
  'Jéssica',
  'Juliana',
  'Kátia',
  'Larissa',
  'Leonardo',
  'Letícia',
  'Natália',
  'Nelson',
  'Otávio',
  'Patrícia',
  'Priscila',
  'Quitéria',
  'Renata',
  'Ricardo',
  'Sandra',
  'Sérgio',
  'Tatiane',
  'Thiago',
  'Úrsula',
  'Vanessa',
  'Vinícius',
  'Wagner',
  'Wesley',
  'Yasmin',
  'Zilda',
  'Vitória',
  'Amanda',
  'Bianca',
  'Cristiane',
  'Douglas',
  'Everton',
  'Gilberto',
  'Hugo',
  'Iara',
  'Jorge',
  'Kelly',
  'Lívia',
  'Nicole',
  'Olga',
  'Pietra',
  'Roberto',
  'Simone',
  'Tânia',
  'Valter',
  'Alice',
  'Bernardo',
  'Cecília',
  'Davi',
  'Enzo',
  'Giovana',
  'Heitor',
  'Laura',
  'Sofia',
];
const SURNAMES = ['Silva', 'Santos', 'Oliveira', 'Souza', 'Rodrigues', 'Ferreira', 'Alves', 'Pereira', 'Lima', 'Gomes'];
const named = NAMES.reduce((sum, [, share]) => sum + share, 0);
const NAME_CUMULATIVE = (() => {
  let sum = 0;
  return [...NAMES.map(([, share]) => (sum += share)), ...OTHERS.map(() => (sum += (100 - named) / OTHERS.length))];
})();

/** A customer's full name, drawn from the shares above. */
export function customerName(next: () => number): string {
  const i = pick(NAME_CUMULATIVE, next);
  const first = i < NAMES.length ? NAMES[i]![0] : OTHERS[i - NAMES.length]!;
  return `${first} ${SURNAMES[Math.floor(next() * SURNAMES.length)]} ${SURNAMES[Math.floor(next() * SURNAMES.length)]}`;
}
