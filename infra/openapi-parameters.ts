/**
 * What each path and query parameter of the documents means, for an integrator reading `/docs` or a generated client
 * (its type, bounds and default are the schema's). A name that means the same on every operation that takes it is
 * written once; one that does not is written per operation. Kept here, out of the schemas, so that no function's
 * bundle carries the documents' words. Spectral's `oas3-parameter-description` (infra/openapi-ruleset.ts) fails a
 * parameter without one.
 */

/** The same meaning wherever the name is taken. */
const BY_NAME: Record<string, string> = {
  limit: 'The most items a page holds',
  page: "The page, from 1: kept for the seed's clients, it may skip at most 10,000 items; cursor walks any number of pages",
  cursor:
    "The previous page's next_cursor, sent back as it is: opaque, sealed and bound to the tenant and the query (any other filters: 422)",
  start_date: 'The first day, included (UTC)',
  end_date: 'The last day, included (UTC), at most 92 days after start_date',
  is_external: "true: id is the sale's own code (its transaction_id), not the evaluation's id",
  from: "The period's first day, included (the tenant's calendar)",
  to: "The period's last day, included (the tenant's calendar)",
  store: "Only this store (its id): one the user's scope holds",
  employee: 'Only this employee (their id)',
  region: 'Only the stores of this region and of its child regions (its id)',
  journey: 'A journey, by its slug or its id',
  source: 'Only the answers that came this way (a sale, a QR code, a kiosk...: its values)',
  group_by: 'What a row is: a store, region, employee, journey, class, day, week or month; a theme or a driver for those reports',
  interval: 'With group_by=theme: each theme by week or by month instead of the whole period',
  period: 'The period the digest reads (a week unless asked otherwise): instead of from and to',
  bucket: "Only the answers in this bucket of the journey's scale",
  class: 'Only the answers that rated this class (its id)',
  has_comment: 'true: only the answers with a comment; false: only those without',
  theme: 'Only the answers whose comment mentions this theme (its slug)',
  sentiment: 'Only the answers whose comment reads so as a whole',
  aspect:
    'A theme and what the comment says of it, <slug>:<polarity> (delivery:negative): the answers whose comment mentions the theme so (mixed is its own)',
  customer: "The customer's id",
  before: "The previous page's last at: the entries before it",
  number: "A case's short number (1, 2, 3...): that case alone, or an empty page; taken with no other filter",
  overdue: 'true: only the cases past their deadline; false: only the others',
  owner: "The cases of this owner: an e-mail address, me (the user token's user) or none (no owner)",
  requestId: 'The x-request-id that POST /v2/transactions answered',
  file: "The logo's content-addressed name: its SHA-256, then .png, .jpg or .webp",
  transactionId: "The transaction's id, as the hand-off to the chatbot names it",
  attemptId: "The survey attempt's number (1 the first), as the hand-off names it",
};

/** Where a name means something else on some operations: by operation id, then name. */
const BY_OPERATION: Record<string, Record<string, string>> = {
  listStores: {
    status: 'Only the stores of this status',
    name: 'The stores whose trade name begins so, case and accents ignored',
    store_id: "The store of this code of the caller's (the store_id it was created with)",
  },
  listCustomers: {
    name: 'The customers whose name begins so (2 characters or more), case and accents ignored',
    email: 'The customers of this e-mail address',
    phone: 'The customers of this phone number',
    cpf: 'The customers of this CPF',
    client_id: "The customer of this code of the caller's (the client_id it was created with)",
    opt_out: 'true: only the customers who asked for no more surveys; false: only the others',
  },
  listEmployees: {
    status: 'Only the employees of this status',
    name: 'The employees whose name begins so, case and accents ignored',
    email: 'The employee of this e-mail address',
    id: 'The employee of this id',
    store: 'The employees of this store (its id)',
    store_id: "The reference API's name for store: the employees of this store (its id)",
    external_store_id: "The employees of the store of this code of the caller's (its store_id)",
  },
  listWebhookDeliveries: { status: 'failed: the deliveries that failed in the last 30 days, newest first' },
  listChatDeliveries: { status: 'failed: the chat alerts that failed in the last 30 days, newest first' },
  listCases: {
    status: 'Only the cases in this state',
    from: 'The first UTC day a case opened, included',
    to: 'The last UTC day a case opened, included',
  },
  listAdminAudit: {
    from: 'The first day or UTC instant, included',
    to: 'The last day or UTC instant, included (a day: the whole day)',
  },
  getAdminQr: {
    store: 'The store the code is for (its id): an active store',
    journey: 'The journey the code asks about (its slug)',
    employee: 'The employee the answers are credited to (their id), one who works at the store',
  },
  getDigest: {
    store: "Only this store (its id): one the user's scope holds; the user's whole scope without it",
    from: "The first day of a period of the reader's own (the tenant's calendar, at most 31 days): instead of period",
    to: "The last day of a period of the reader's own, included",
  },
  getSurvey: {
    journey: 'The journey, by its slug, as the hand-off names it',
    source: 'The channel the customer answers on, as the hand-off names it',
  },
};

/** A path's id, by the collection before it. */
const ID_OF: readonly [RegExp, string][] = [
  [/\/store\/\{id\}/, "The store's id, as its creation answered it"],
  [/\/customer\/\{id\}/, "The customer's id, as its creation answered it"],
  [/\/employee\/\{id\}/, "The employee's id, as their creation answered it"],
  [/\/transaction\/\{id\}/, "The transaction's id, as its creation answered it"],
  [/\/rating\/formbuilder\/\{id\}/, "The evaluation's id; with is_external=true, the sale's own code (transaction_id)"],
  [/\/webhooks\/deliveries\/\{id\}/, "The failed delivery's id, as the list of failed deliveries gives it"],
  [/\/chat\/deliveries\/\{id\}/, "The failed chat alert's id, as the list of failed alerts gives it"],
  [/\/admin\/keys\/\{id\}/, "The API key's id (never the key itself)"],
  [/\/privacy\/requests\/\{id\}/, "The privacy request's id, as its creation answered it"],
  [/\/cases\/\{id\}/, "The case's id (its transaction's id), not its short number"],
  [/\/admin\/kiosks\/\{id\}/, "The kiosk's id, as its registration answered it"],
];

const PATH: Record<string, (path: string) => string | undefined> = {
  id: (path) => ID_OF.find(([pattern]) => pattern.test(path))?.[1],
  email: () => "The user's e-mail address: their name in the tenant",
};

/** The parameter's description, or undefined where none is written (the document's lint then fails). */
export function describeParameter(operationId: string, path: string, where: 'path' | 'query', name: string): string | undefined {
  if (where === 'path') return PATH[name]?.(path) ?? BY_NAME[name];
  return BY_OPERATION[operationId]?.[name] ?? BY_NAME[name];
}
