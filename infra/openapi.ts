import { toJsonSchema, toJsonSchemaDefs, type ConversionConfig } from '@valibot/to-json-schema';
import { withNamedEnums } from './openapi-enums.js';
import type * as v from 'valibot';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import type { AnswerHeader, ResponseDoc } from '../shared/http/contract.js';
import { listOf, ProblemBody } from '../shared/http/contract.js';
import { MAX_BODY_BYTES } from '../shared/http/handler.js';
import { API_KEY_HEADER, USER_TOKEN_HEADER, USER_TOKEN_QUERY } from '../shared/headers.js';
import { MAX_FORM_BYTES } from '../shared/http/page.js';
import { QR_PREFIX } from '../shared/in-store/qr-paths.js';
import { QR_TOKEN_SHAPE } from '../shared/in-store/qr-token.js';
import { KIOSK_PATH } from '../shared/in-store/kiosk-paths.js';
import { KIOSK_TOKEN_SHAPE } from '../shared/in-store/kiosk-token.js';
import { DIGEST_UNSUBSCRIBE_PATH } from '../shared/digest/paths.js';
import { DIGEST_TOKEN_SHAPE } from '../shared/digest/unsubscribe.js';
import { SURVEY_TOKEN_SHAPE } from '../shared/surveys/link.js';
import { BUCKETS } from '../shared/settings/scales.js';
import { withBounds } from './openapi-bounds.js';
import { describeParameter } from './openapi-parameters.js';
import { PROBLEMS, RETRY_AFTER_SECONDS } from '../shared/http/problem.js';
import { OPEN_REQUESTS_RETRY_SECONDS } from '../shared/privacy/open-requests.js';
import { IssuedKeyView, KeyView } from '../shared/access/api-keys.js';
import { CreatedUserView, UserView } from '../shared/access/tenant-users.js';
import { AnswerBody, AnswersBody } from '../shared/answers/schema.js';
import { AuditEntryBody } from '../shared/audit/log.js';
import { LogoObject } from '../shared/brand/logo.js';
import { CaseBody, CaseContactBody, CasesBody } from '../shared/cases/bodies.js';
import { CasePatch } from '../shared/cases/schema.js';
import { CreateCustomerBody, UpdateCustomerBody } from '../shared/customers/requests.js';
import { CreateEmployeeBody, UpdateEmployeeBody } from '../shared/employees/requests.js';
import { CreatedCustomerBody, Customer } from '../shared/customers/schema.js';
import { Employee } from '../shared/employees/schema.js';
import { AccessBody } from '../shared/privacy/access.js';
import { ExportDocument, PrivacyRequestBody, PrivacyRequestView } from '../shared/privacy/schema.js';
import { ReportBody, ResultRowBody } from '../shared/results/schema.js';
import { DigestBody } from '../shared/digest/schema.js';
import { CreateStoreBody, UpdateStoreBody } from '../shared/stores/requests.js';
import { Store } from '../shared/stores/schema.js';
import { SurveyBody } from '../shared/surveys/answer-schema.js';
import { EvaluationBody, SurveyView } from '../shared/surveys/schema.js';
import { ConfigDocument, Group } from '../shared/tenants/config-schema.js';
import { Transaction } from '../shared/transaction-record.js';
import { RequestOutcomeBody } from '../shared/transactions/schema.js';
import { LegacyTransactionBody } from '../shared/transactions/legacy-request.js';
import { V2TransactionBody } from '../shared/transactions/v2-request.js';
import { EXAMPLE_FIXTURE, validRequests } from './examples.js';
import { referencePaths, routes, type ApiName, type Route } from './routes.js';
import { ASSET_PATH, DOCS_PATH, OPENAPI_PATH } from '../shared/http/reference-data.js';
import { isUnsubscribePath } from '../shared/surveys/paths.js';
import type { UserNeed } from '../shared/access/tenant-access.js';
import type { AdminArea } from '../shared/access/capabilities.js';

/**
 * The OpenAPI 3.1 document of one API, generated from the route table and the contract each handler exports (the
 * valibot schemas it validates with and the statuses it answers), with the tests' valid requests as examples.
 * Nothing in it is written by hand.
 */
interface Contract {
  body?: v.GenericSchema;
  /** A file as the body (its media types), not JSON. */
  bytes?: readonly string[];
  path?: v.GenericSchema;
  query?: v.GenericSchema;
  /** The statuses a route gives some problems instead of their usual ones (422 for an invalid list query, say). */
  statuses?: Partial<Record<keyof typeof PROBLEMS, number>>;
  /** The user token the route needs (shared/http/handler.ts RouteSpec). */
  user?: UserNeed;
  /** The seed's lists (and the flexible-form read) take the user token in the query too; every other route refuses it. */
  userTokenInQuery?: true;
  /** An admin route and what it administers (shared/access/capabilities.ts). */
  admin?: AdminArea;
  anonymous?: true;
  /** An HTML page for people: its answers are text/html, its body a form. */
  page?: true;
  form?: Record<string, string>;
  /** A change made from a read: the If-Match header it requires names the ETag of this (a 428 without it). */
  ifMatch?: string;
  responses?: Record<number, ResponseDoc>;
}

type JsonSchema = Record<string, unknown>;
const FUNCTIONS = fileURLToPath(new URL('../functions/', import.meta.url));

/**
 * The shapes a client meets most, as named components: wherever a contract uses one of these very schemas, the
 * document refers to it by name, so that a generated client has a type of that name.
 */
const COMPONENTS: Record<string, v.GenericSchema> = {
  Problem: ProblemBody,
  Store,
  StorePage: listOf(Store),
  NewStore: CreateStoreBody,
  StoreChanges: UpdateStoreBody,
  Customer,
  CustomerPage: listOf(Customer),
  NewCustomer: CreateCustomerBody,
  CreatedCustomer: CreatedCustomerBody,
  CustomerChanges: UpdateCustomerBody,
  Employee,
  EmployeePage: listOf(Employee),
  NewEmployee: CreateEmployeeBody,
  EmployeeChanges: UpdateEmployeeBody,
  Group,
  Transaction,
  V2Transaction: V2TransactionBody,
  LegacyTransaction: LegacyTransactionBody,
  TransactionRequest: RequestOutcomeBody,
  Evaluation: EvaluationBody,
  EvaluationPage: listOf(EvaluationBody),
  Survey: SurveyView,
  SurveyAnswer: SurveyBody,
  Answer: AnswerBody,
  AnswerPage: AnswersBody,
  Case: CaseBody,
  CasePage: CasesBody,
  CaseChanges: CasePatch,
  CaseContact: CaseContactBody,
  Results: ReportBody,
  ResultRow: ResultRowBody,
  Digest: DigestBody,
  Config: ConfigDocument,
  Logo: LogoObject,
  ApiKey: KeyView,
  IssuedApiKey: IssuedKeyView,
  User: UserView,
  CreatedUser: CreatedUserView,
  AuditEntry: AuditEntryBody,
  PrivacyRequest: PrivacyRequestView,
  NewPrivacyRequest: PrivacyRequestBody,
  PrivacyExport: ExportDocument,
  PrivacyAccess: AccessBody,
};

const CONVERSION: ConversionConfig = {
  errorMode: 'ignore',
  definitions: COMPONENTS,
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
  // A schema may say what it is on the wire where its pipe cannot (an integer read from the path's text).
  overrideAction: ({ valibotAction }) => {
    const action = valibotAction as { type: string; metadata?: { jsonSchema?: JsonSchema } };
    return action.type === 'metadata' && action.metadata?.jsonSchema ? { ...action.metadata.jsonSchema } : undefined;
  },
};

function schemaOf(schema: v.GenericSchema): JsonSchema {
  const { $schema: _, $defs: __, ...json } = toJsonSchema(schema, CONVERSION) as JsonSchema;
  return json;
}

/** The named components a document refers to, directly or through another component. */
function componentsUsedBy(document: unknown): Record<string, JsonSchema> {
  const all = toJsonSchemaDefs(COMPONENTS, CONVERSION) as Record<string, JsonSchema>;
  const used = new Set<string>();
  const visit = (node: unknown) => {
    for (const [, name] of JSON.stringify(node).matchAll(/"#\/components\/schemas\/(\w+)"/g))
      if (all[name!] && !used.has(name!)) {
        used.add(name!);
        visit(all[name!]);
      }
  };
  visit(document);
  return Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
}

/** A parameter's value as its schema types it: path and query text that is an integer is documented as one. */
const typed = (schema: JsonSchema, value: unknown) => (schema.type === 'integer' ? Number(value) : String(value));

/** An operation's path or query parameters, from its schema, each with its meaning (infra/openapi-parameters.ts). */
function parameters(
  schema: v.GenericSchema | undefined,
  {
    where,
    examples = {},
    operationId,
    path,
  }: { where: 'path' | 'query'; examples?: Record<string, unknown>; operationId: string; path: string },
): JsonSchema[] {
  if (!schema) return [];
  const json = schemaOf(schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (json.required ?? []).includes(name),
    description: property.description ?? describeParameter(operationId, path, where, name),
    schema: property.default === undefined ? property : { ...property, default: typed(property, property.default) },
    ...(examples[name] !== undefined ? { example: typed(property, examples[name]) } : {}),
  }));
}

/** The example of an operation: the valid request the tests send, with the demo tenant's names. */
function exampleOf(operationId: string, template: string) {
  const request = validRequests[operationId]?.(EXAMPLE_FIXTURE);
  if (!request) return { path: {}, query: {}, body: undefined, rawBody: undefined };
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '([^/]+)')}$`);
  const values = pattern.exec(request.path)?.slice(1) ?? [];
  const { token: _, ...query } = request.query ?? {};
  return {
    path: Object.fromEntries(names.map((n, i) => [n, values[i]])),
    query,
    body: typeof request.body === 'object' && !Buffer.isBuffer(request.body) ? request.body : undefined,
    rawBody: typeof request.body === 'string' ? request.body : undefined,
  };
}

/** A form's fields; a name with a {placeholder} (class_{classId}) is a pattern of names. */
function formFields(form: Record<string, string>): JsonSchema {
  const fields = Object.entries(form).map(([name, description]) => [name, { type: 'string', description }] as const);
  const patterns = fields.filter(([name]) => name.includes('{'));
  return {
    properties: Object.fromEntries(fields.filter(([name]) => !name.includes('{'))),
    ...(patterns.length
      ? { patternProperties: Object.fromEntries(patterns.map(([name, field]) => [`^${name.replace(/\{\w+\}/g, '\\w+')}$`, field])) }
      : {}),
  };
}

/** The token in a page's path (its credential): what it is, and the shape its page takes. */
const PAGE_TOKENS: { at: (path: string) => boolean; description: string; shape: RegExp }[] = [
  {
    at: (path) => path === KIOSK_PATH || path.startsWith(`${KIOSK_PATH}/`),
    description: "The kiosk's device token, answered once when it was registered (38 URL-safe characters)",
    shape: KIOSK_TOKEN_SHAPE,
  },
  {
    at: (path) => path.startsWith(QR_PREFIX),
    description: "The QR code's token: the credential of the page (47 URL-safe characters)",
    shape: QR_TOKEN_SHAPE,
  },
  {
    at: (path) => path === DIGEST_UNSUBSCRIBE_PATH,
    description: "The digest's unsubscribe token: signed, naming no one (28 URL-safe characters)",
    shape: DIGEST_TOKEN_SHAPE,
  },
  {
    at: () => true,
    description: "The survey link's token: the credential of the page (44 URL-safe characters)",
    shape: SURVEY_TOKEN_SHAPE,
  },
];

/**
 * A survey page's parameters: the link's token, and the score a GET may preselect (a QR code's page and a kiosk's: their
 * thanks). A kiosk's page has no token in its path: its cookie holds it.
 */
function pageParameters(path: string, method: string, example: ReturnType<typeof exampleOf>): JsonSchema[] {
  const qr = path.startsWith(QR_PREFIX);
  const kiosk = path === KIOSK_PATH || path.startsWith(`${KIOSK_PATH}/`);
  const token = PAGE_TOKENS.find(({ at }) => at(path))!;
  return [
    ...(path.includes('{token}')
      ? [
          {
            name: 'token',
            in: 'path',
            required: true,
            description: token.description,
            schema: { type: 'string', pattern: token.shape.source },
            ...((example.path as Record<string, string | undefined>).token
              ? { example: (example.path as Record<string, string>).token }
              : {}),
          },
        ]
      : []),
    ...(method === 'GET' && (qr || path === KIOSK_PATH)
      ? [
          {
            name: 'thanks',
            in: 'query',
            required: false,
            description: 'Show the thanks, in the words of this bucket (after an answer)',
            schema: { type: 'string', enum: [...BUCKETS] },
          },
        ]
      : []),
    ...(method === 'GET' && !qr && !kiosk && !isUnsubscribePath(path)
      ? [
          {
            name: 'score',
            in: 'query',
            required: false,
            description: 'A score to show chosen (records nothing)',
            schema: { type: 'string' },
          },
        ]
      : []),
  ];
}

const GATEWAY_MESSAGE = { $ref: '#/components/schemas/GatewayMessage' };

type Header = AnswerHeader | 'Link' | 'x-request-id';

/** Each header an answer may carry, described once. */
const HEADERS: Record<Header, JsonSchema> = {
  'x-request-id': { description: "The request's id: quote it when reporting a problem", schema: { type: 'string' } },
  ETag: {
    description: 'The version read (a strong entity tag): send it back as If-Match to change what was read',
    schema: { type: 'string' },
  },
  Location: {
    description: 'Where the answer points: the page to show next (303), or the address of what was created (201)',
    schema: { type: 'string' },
  },
  'Retry-After': {
    description: 'The seconds to wait before trying again',
    schema: { type: 'integer', minimum: 0, maximum: Math.max(RETRY_AFTER_SECONDS, OPEN_REQUESTS_RETRY_SECONDS) },
  },
  Link: {
    description: 'The next page, when there is one: `<?...&cursor=...>; rel="next"` (relative to this one)',
    schema: { type: 'string' },
  },
};

/** One answer an operation can give: a status, what it means, its body's media type and schema, and its headers. */
interface Answer {
  status: number;
  description: string;
  media?: string;
  schema?: JsonSchema;
  headers?: readonly Header[];
}

/** What every answer of the service itself carries (API Gateway's own answers carry none of it). */
const SERVICE: readonly Header[] = ['x-request-id'];

/**
 * What API Gateway answers by itself, before or instead of the function, with its bare `{"message"}` body. A path
 * or method that is not in the document answers 404 `{"message":"Not Found"}` the same way.
 */
function gatewayAnswers(contract: Contract, route: Route): Answer[] {
  const gateway = (status: number, message: string, when: string): Answer => ({
    status,
    description: `${when} (API Gateway: {"message":"${message}"})`,
    media: 'application/json',
    schema: GATEWAY_MESSAGE,
  });
  return [
    ...(contract.anonymous ? [] : [gateway(401, 'Unauthorized', `No ${API_KEY_HEADER} header`)]),
    ...(route.method === 'GET' ? [] : [gateway(413, 'Request Entity Too Large', 'A body over 10 MB')]),
    gateway(429, 'Too Many Requests', "Over the stage's request rate"),
    gateway(500, 'Internal Server Error', 'The function or the key authorizer failed without answering'),
    gateway(503, 'Service Unavailable', 'The function could not be started (its concurrency is exhausted)'),
    gateway(504, 'Service Unavailable', 'The function did not answer within 30 seconds'),
  ];
}

/** What the HTTP layer answers for every operation of its kind, beside what the handler's contract declares. */
function layerAnswers(contract: Contract): Answer[] {
  if (contract.page)
    return [
      { status: 413, description: `A form over ${MAX_FORM_BYTES / 1024} KB (a page)`, media: 'text/html', headers: SERVICE },
      { status: 500, description: 'Unexpected error (a generic page)', media: 'text/html', headers: SERVICE },
      {
        status: 503,
        description: 'A service the page needs is briefly unavailable (a page)',
        media: 'text/html',
        headers: [...SERVICE, 'Retry-After'],
      },
    ];
  const problem = (status: number, description: string): Answer => ({
    status,
    description,
    media: 'application/problem+json',
    schema: schemaOf(ProblemBody),
    headers: status === 503 ? [...SERVICE, 'Retry-After'] : SERVICE,
  });
  // Every operation validates its path and refuses a query parameter it does not take.
  const parameters = contract.path
    ? 'A malformed path parameter (an id that is not one), or a query parameter that is invalid or not taken'
    : 'A query parameter that is invalid or not taken';
  return [
    ...(contract.anonymous ? [] : [problem(401, 'Unknown or revoked API key')]),
    problem(contract.statuses?.validation ?? PROBLEMS.validation.status, `${parameters} (errors names each)`),
    ...(contract.userTokenInQuery
      ? []
      : [problem(PROBLEMS.validation.status, `A user token in the URL (${USER_TOKEN_QUERY}): send it in the ${USER_TOKEN_HEADER} header`)]),
    ...(contract.body ? [problem(400, 'The body is not valid JSON'), problem(415, 'The body is not application/json')] : []),
    problem(413, `A body over ${MAX_BODY_BYTES / 1024 / 1024} MiB`),
    problem(500, 'Unexpected error (generic body; quote the x-request-id header)'),
    problem(503, 'A service the operation needs is briefly unavailable (see Retry-After)'),
  ];
}

/** Every answer of an operation, merged by status: one description, one schema per media type. */
function responsesOf(contract: Contract, route: Route): Record<string, JsonSchema> {
  const declared: Answer[] = Object.entries(contract.responses ?? {}).flatMap(([status, doc]): Answer[] =>
    doc.media
      ? doc.media.map((media) => ({
          status: Number(status),
          description: doc.description,
          media,
          schema: { type: 'string', format: 'binary' },
          headers: [...SERVICE, ...(doc.headers ?? [])],
        }))
      : [answerOf(contract, status, doc)],
  );
  // The same answer in another media type (CSV, say): a text body.
  const alternatives: Answer[] = Object.entries(contract.responses ?? {}).flatMap(([status, doc]) =>
    (doc.alternatives ?? []).map((media) => ({ status: Number(status), description: doc.description, media, headers: SERVICE })),
  );
  return merged([...declared, ...alternatives, ...layerAnswers(contract), ...gatewayAnswers(contract, route)]);
}

/** A declared answer of JSON, problem+json or a page. */
function answerOf(contract: Contract, status: string, doc: ResponseDoc): Answer {
  return {
    status: Number(status),
    description: doc.description,
    ...(contract.page
      ? { media: 'text/html' }
      : doc.schema
        ? {
            media: Number(status) >= 400 ? 'application/problem+json' : 'application/json',
            schema: schemaOf(doc.schema),
          }
        : {}),
    headers: [
      ...SERVICE,
      ...(doc.headers ?? []),
      // A page's form post is redirected to the page to show next.
      ...(contract.page && status === '303' ? (['Location'] as const) : []),
      ...(doc.nextLink ? (['Link'] as const) : []),
    ],
  };
}

/** A header is required where every answer of that status carries it (none of API Gateway's own does). */
function merged(answers: Answer[]): Record<string, JsonSchema> {
  const responses: Record<string, { description: string; content?: Record<string, JsonSchema>; headers?: Record<string, JsonSchema> }> = {};
  for (const answer of answers) {
    const response = (responses[answer.status] ??= { description: '' });
    if (!response.description.split('; or: ').includes(answer.description))
      response.description = response.description ? `${response.description}; or: ${answer.description}` : answer.description;
    // The first schema given for a media type stays: the contract's own before the layers'.
    if (answer.media && !response.content?.[answer.media])
      response.content = { ...response.content, [answer.media]: { schema: answer.schema ?? { type: 'string' } } };
  }
  for (const [status, response] of Object.entries(responses)) {
    const these = answers.filter((answer) => String(answer.status) === status);
    const names = [...new Set(these.flatMap((answer) => answer.headers ?? []))];
    if (names.length)
      response.headers = Object.fromEntries(
        names.map((name) => [
          name,
          these.every((answer) => answer.headers?.includes(name)) ? { ...HEADERS[name], required: true } : HEADERS[name],
        ]),
      );
  }
  return Object.fromEntries(Object.entries(responses).sort(([a], [b]) => Number(a) - Number(b)));
}

/** The tags, one per resource: each operation's is the first segment of its canonical path after the prefixes. */
const TAGS: Record<string, string> = {
  health: 'Whether the service can serve',
  brand: "What customers see of a tenant: its logo, served by its content's hash",
  store: 'The stores a tenant rates',
  customer: 'The customers surveys are sent to',
  employee: 'The employees rated, their stores and groups',
  transactions: 'Sales and visits, each of which may send a survey (v2: queued)',
  transaction: 'Sales and visits registered synchronously (the legacy interface)',
  rating: "Flexible-form ratings: the forms and the answers' evaluations",
  webhooks: "The deliveries of events to the tenant's webhook endpoints",
  chat: "The messages to the tenant's Slack and Teams endpoints: the failed ones, and their re-sending (admin)",
  results: 'NPS, CSAT and CES by store, employee, journey, class and period, counted as answers arrive',
  digest: "The digest's figures of the last week or day in the user's scope: scores and their change, rates, rankings, cases (user token)",
  themes: "Key phrases frequent in the period's comments that none of the tenant's themes covers: candidates for new themes",
  answers: 'What customers answered, with their comments, for managers and integrations (JSON or CSV)',
  privacy: "A data subject's rights under the LGPD: a copy of their data, and its erasure",
  cases: "Cases opened by the answers that match a journey's rule: the list, a case, its changes and its customer's contact (user token)",
  admin: "The tenant's self-administration, with an API key of scope admin: its configuration and the audit log of changes",
  'survey-page': 'The survey page a link opens, for the customer (HTML)',
  'qr-page': "The survey page a store's printed QR code opens, for a walk-in customer (HTML)",
  'kiosk-page': "The survey page of a store's tablet, for walk-in customers one after another (HTML)",
  'digest-page': "The digest e-mail's one-click unsubscribe page, for its reader (HTML)",
  reference:
    "This document, a browsable reference to it, and the results page: the API's own pages, served without a key, compressed (brotli or gzip) when Accept-Encoding admits it",
  survey: 'The chatbot hand-off: read a survey, answer it, correct the answer',
};

/** Tags read as words where a path's segment is terse: `/s/{token}` is the survey page, `/q/{token}` a QR code's, `/k` a kiosk's, `/d/` a digest's. */
const TAG_OF_SEGMENT: Record<string, string> = { s: 'survey-page', q: 'qr-page', k: 'kiosk-page', d: 'digest-page' };

function tagOf(route: Route): string {
  const segment = route.paths[0]!.split('/').filter((part) => part && !['public', 'v2', 'api', 'v1'].includes(part))[0];
  const tag = segment && (TAG_OF_SEGMENT[segment] ?? segment);
  if (!tag || !TAGS[tag]) throw new Error(`${route.operationId}: no tag described for ${route.paths[0]}`);
  return tag;
}

/** What a reader needs beyond the summary: who may call it, how it pages, and which path is canonical. */
function descriptionOf(route: Route, contract: Contract, path: string): string {
  const access = contract.page
    ? path.includes('{token}')
      ? 'No API key: the token in the path is the credential.'
      : "No API key: the tablet's cookie, its kiosk's device token, is the credential."
    : contract.anonymous
      ? 'No API key needed.'
      : contract.admin
        ? `Needs the tenant's admin API key (${API_KEY_HEADER} header), or its API key and the user token (${USER_TOKEN_HEADER} header) of a user with role admin${
            contract.admin === 'tenant' ? ' who sees every store' : ''
          }; anyone else gets 403.`
        : `Needs the tenant's API key (${API_KEY_HEADER} header)${
            contract.user
              ? ` and a user token (${USER_TOKEN_HEADER} header${
                  contract.userTokenInQuery ? `, or the ${USER_TOKEN_QUERY} query parameter as the seed's clients send it` : ''
                })`
              : ''
          }.`;
  return [
    `${route.summary}.`,
    access,
    route.cursors ? 'Pages are opaque cursors: pass next_cursor back as cursor; they are bound to the tenant and the query.' : '',
    path === route.paths[0]
      ? route.paths.length > 1
        ? `Also served at ${route.paths.slice(1).join(', ')} (alias).`
        : ''
      : `Alias of ${route.method} ${route.paths[0]}: the same operation and answers.`,
  ]
    .filter(Boolean)
    .join(' ');
}

/** The pages each API serves beside its operations (shared/http/reference.ts): documented as its operations are. */
const REFERENCE: Record<string, { operationId: string; summary: string; media: string[]; schema?: JsonSchema }> = {
  [OPENAPI_PATH]: {
    operationId: 'getOpenApiDocument',
    summary: 'This document (OpenAPI 3.1)',
    media: ['application/json'],
    schema: { type: 'object', description: 'An OpenAPI 3.1 document' },
  },
  [DOCS_PATH]: { operationId: 'getDocs', summary: 'A browsable reference to this document (HTML, works offline)', media: ['text/html'] },
  [ASSET_PATH]: {
    operationId: 'getReferenceAsset',
    summary: 'A script or style sheet the reference and the workspace pages load, or the Swagger UI page (console.html)',
    media: ['text/javascript', 'text/css', 'text/html'],
  },
};

function referenceOperation(path: string): Record<string, unknown> {
  const page = REFERENCE[path];
  if (!page) throw new Error(`${path}: a reference path with no description`);
  const route = { method: 'GET' } as Route;
  const answers: Answer[] = [
    ...page.media.map((media) => ({ status: 200, description: page.summary, media, ...(page.schema ? { schema: page.schema } : {}) })),
    ...(path.includes('{asset}')
      ? [{ status: 404, description: 'No such file in the reference', media: 'application/problem+json', schema: schemaOf(ProblemBody) }]
      : []),
    ...gatewayAnswers({ anonymous: true }, route),
  ];
  return {
    operationId: page.operationId,
    summary: page.summary,
    description: `${page.summary}. No API key needed.`,
    tags: ['reference'],
    parameters: path.includes('{asset}')
      ? [{ name: 'asset', in: 'path', required: true, description: 'The file name the page links to', schema: { type: 'string' } }]
      : [],
    responses: merged(answers),
    security: [],
  };
}

/** Each credential its own scheme: the key of each scope, and the user token in its header (or the seed's query). */
const SECURITY_SCHEMES: Record<ApiName, Record<string, JsonSchema>> = {
  public: {
    publicKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'An API key of scope public' },
    adminKey: {
      type: 'apiKey',
      in: 'header',
      name: API_KEY_HEADER,
      description: 'An API key of scope admin: the admin operations, and whatever a public key may call',
    },
    userToken: { type: 'apiKey', in: 'header', name: USER_TOKEN_HEADER, description: "A user's token, beside an API key" },
    userTokenQuery: {
      type: 'apiKey',
      in: 'query',
      name: USER_TOKEN_QUERY,
      description: "A user's token in the URL, as the seed's clients send it: only on the lists of customers and flexible-form ratings",
    },
  },
  chatbot: { chatbotKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'An API key of scope chatbot' } },
};

/** The credentials an operation takes, each alternative a requirement (shared/http/handler.ts enforces them). */
function securityOf(api: ApiName, contract: Contract): Record<string, string[]>[] {
  if (contract.anonymous) return [];
  if (api === 'chatbot') return [{ chatbotKey: [] }];
  if (contract.admin) return [{ adminKey: [] }, { publicKey: [], userToken: [] }];
  const keys = ['publicKey', 'adminKey'];
  const tokens = contract.user ? ['userToken', ...(contract.userTokenInQuery ? ['userTokenQuery'] : [])] : [undefined];
  return tokens.flatMap((token) => keys.map((key) => ({ [key]: [], ...(token ? { [token]: [] } : {}) })));
}

const TITLES: Record<ApiName, string> = {
  public: 'Satisfaction survey service: public API',
  chatbot: 'Satisfaction survey service: chatbot API',
};

export async function openApiDocument(api: ApiName, serverUrl?: string): Promise<JsonSchema> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes.filter((r) => r.api === api)) {
    const { contract } = (await import(pathToFileURL(FUNCTIONS + route.handler).href)) as { contract: Contract };
    const responses = responsesOf(contract, route);
    // A read the seed's clients send the user token to, though it needs none: taken, and ignored.
    const ignoredToken =
      contract.userTokenInQuery && !contract.user
        ? [
            {
              name: USER_TOKEN_QUERY,
              in: 'query',
              required: false,
              description: 'Accepted and ignored: this read needs no user token',
              schema: { type: 'string' },
            },
          ]
        : [];
    const example = exampleOf(route.operationId, route.paths[0]!);
    route.paths.forEach((path, i) => {
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = {
        operationId: i === 0 ? route.operationId : `${route.operationId}Alias${i}`,
        summary: route.summary,
        description: descriptionOf(route, contract, path),
        ...(i === 0 ? {} : { 'x-alias-of': route.paths[0] }),
        tags: [tagOf(route)],
        parameters: [
          ...(contract.page ? pageParameters(path, route.method, example) : []),
          ...parameters(contract.path, { where: 'path', examples: example.path, operationId: route.operationId, path }),
          ...parameters(contract.query, { where: 'query', examples: example.query, operationId: route.operationId, path }),
          ...(contract.ifMatch
            ? [
                {
                  name: 'If-Match',
                  in: 'header',
                  required: true,
                  description: `The ETag of ${contract.ifMatch}, or * to replace whatever is current (428 without it, 412 when it no longer matches)`,
                  schema: { type: 'string' },
                },
              ]
            : []),
          ...ignoredToken,
        ],
        ...(contract.form
          ? {
              requestBody: {
                required: route.operationId !== 'postUnsubscribe',
                content: {
                  'application/x-www-form-urlencoded': {
                    schema: {
                      type: 'object',
                      ...formFields(contract.form),
                    },
                    ...(typeof example.rawBody === 'string' ? { example: Object.fromEntries(new URLSearchParams(example.rawBody)) } : {}),
                  },
                },
              },
            }
          : {}),
        ...(contract.body
          ? {
              requestBody: {
                required: true,
                content: { 'application/json': { schema: schemaOf(contract.body), ...(example.body ? { example: example.body } : {}) } },
              },
            }
          : {}),
        ...(contract.bytes
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(contract.bytes.map((media) => [media, { schema: { type: 'string', format: 'binary' } }])),
              },
            }
          : {}),
        responses,
        security: securityOf(api, contract),
      };
    });
  }
  for (const path of referencePaths(api)) paths[path] = { get: referenceOperation(path) };
  return withBounds(
    withNamedEnums({
      openapi: '3.1.0',
      info: {
        title: TITLES[api],
        version: '1.0.0',
        description: [
          'Errors are RFC 9457 problem details (application/problem+json); every response carries x-request-id.',
          'API Gateway answers some requests itself, before the service, with a bare JSON body: 401',
          `{"message":"Unauthorized"} without an ${API_KEY_HEADER} header, 404 {"message":"Not Found"} for a path or`,
          'method not in this document, 413 over 10 MB, 429 over the rate limit, and 500, 503 or 504 when the function',
          'fails, cannot start or times out. Each operation lists the ones it can meet.',
        ].join(' '),
        contact: { name: 'The operators of this deployment' },
        license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      },
      // Relative to the document, which each deployment serves at the root of its API (the stage's URL included).
      servers: [
        {
          url: serverUrl ?? '.',
          description: 'The deployment serving this document: production, staging or a local stack, each serves its own',
          // For the tenants' own integrations, not the operators'.
          'x-internal': false,
        },
      ],
      tags: [...new Set([...routes.filter((r) => r.api === api).map(tagOf), 'reference'])].map((name) => ({
        name,
        description: TAGS[name],
      })),
      components: {
        securitySchemes: SECURITY_SCHEMES[api],
        schemas: {
          ...componentsUsedBy(paths),
          GatewayMessage: {
            type: 'object',
            description: "API Gateway's own answer, given before or instead of the service",
            properties: { message: { type: 'string', examples: ['Unauthorized', 'Too Many Requests'] } },
            required: ['message'],
          },
        },
      },
      paths,
    }),
  ) as JsonSchema;
}
