import { REFERENCE_ROUTES, RESULTS_ROUTE } from '../shared/http/reference.js';
import type { QueueId } from '../shared/queues.js';

/**
 * The route table: every operation of both APIs, as plain data. The CDK stack, the local gateway, the infra tests
 * (and the OpenAPI document) read it; a path or a method is written nowhere else.
 */
export type ApiName = 'public' | 'chatbot';

/**
 * What a function does with the table: `read` (GetItem, BatchGetItem, Query), `write` (PutItem, UpdateItem, and
 * TransactWriteItems of them), `delete` (DeleteItem, alone or in a transaction), `batchWrite` (BatchWriteItem). Empty:
 * it never touches the table (the API references). Nothing grants Scan.
 */
export type TableAccess = readonly ('read' | 'write' | 'delete' | 'batchWrite')[];
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  operationId: string;
  method: Method;
  /** The first path is the canonical one; the others are aliases served by the same function. */
  paths: readonly string[];
  /** Module under functions/ exporting `handler`. */
  handler: string;
  api: ApiName;
  /** Table access: what the code does with the table, and so what its role may do (infra/grants.ts). */
  table: TableAccess;
  queues: readonly QueueId[];
  /** Issues or reads v2 request ids, which are signed (ENV.requestIdSecret). */
  requestIds?: true;
  /** Pages with cursors: the function seals them with the deployment's cursor secret. */
  cursors?: true;
  /** Reachable without an API key: /health, and the survey pages (the link's token is the credential). */
  anonymous?: true;
  /** Reads or signs survey links (ENV.surveySecret). */
  surveyLinks?: true;
  /** Answers an HTML page for people, not JSON. */
  page?: true;
  summary: string;
}

/** Whether a status is the operation's success: 2xx, or the redirect after a page's form post. */
export const succeeded = (route: Pick<Route, 'page'>, status: number) => status < 300 || (route.page === true && status === 303);

const both = (path: string) => [`/public${path}`, path];

export const routes: readonly Route[] = [
  {
    operationId: 'getHealth',
    method: 'GET',
    paths: ['/health'],
    handler: 'http/get-health.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    anonymous: true,
    summary: 'Whether the service can reach its table',
  },

  {
    operationId: 'listStores',
    cursors: true,
    method: 'GET',
    paths: both('/store'),
    handler: 'http/list-stores.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'List stores (filters: status, name, store_id)',
  },
  {
    operationId: 'createStore',
    method: 'POST',
    paths: both('/store'),
    handler: 'http/create-store.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: 'Create a store',
  },
  {
    operationId: 'getStore',
    method: 'GET',
    paths: both('/store/{id}'),
    handler: 'http/get-store.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'Read a store',
  },
  {
    operationId: 'updateStore',
    method: 'PUT',
    paths: both('/store/{id}'),
    handler: 'http/update-store.ts',
    api: 'public',
    table: ['read', 'write', 'delete'],
    queues: [],
    summary: 'Edit a store',
  },
  {
    operationId: 'deleteStore',
    method: 'DELETE',
    paths: both('/store/{id}'),
    handler: 'http/delete-store.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: 'Deactivate a store',
  },

  {
    operationId: 'listCustomers',
    cursors: true,
    method: 'GET',
    paths: both('/customer'),
    handler: 'http/list-customers.ts',
    api: 'public',
    table: ['read', 'batchWrite'],
    queues: [],
    summary: 'List customers (user token; filters: name, email, phone, cpf, client_id, opt_out)',
  },
  {
    operationId: 'createCustomer',
    method: 'POST',
    paths: both('/customer'),
    handler: 'http/create-customer.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: 'Create a customer',
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    paths: both('/customer/{id}'),
    handler: 'http/get-customer.ts',
    api: 'public',
    table: ['read', 'batchWrite'],
    queues: [],
    summary: 'Read a customer',
  },
  {
    operationId: 'updateCustomer',
    method: 'PUT',
    paths: both('/customer/{id}'),
    handler: 'http/update-customer.ts',
    api: 'public',
    table: ['read', 'write', 'delete'],
    queues: [],
    summary: 'Edit a customer',
  },

  {
    operationId: 'listEmployees',
    cursors: true,
    method: 'GET',
    paths: both('/employee'),
    handler: 'http/list-employees.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'List employees (filters: name, email, id, store, external_store_id, status)',
  },
  {
    operationId: 'createEmployee',
    method: 'POST',
    paths: both('/employee'),
    handler: 'http/create-employee.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: 'Create an employee',
  },
  {
    operationId: 'getEmployee',
    method: 'GET',
    paths: both('/employee/{id}'),
    handler: 'http/get-employee.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'Read an employee',
  },
  {
    operationId: 'updateEmployee',
    method: 'PUT',
    paths: both('/employee/{id}'),
    handler: 'http/update-employee.ts',
    api: 'public',
    table: ['read', 'write', 'delete'],
    queues: [],
    summary: 'Edit an employee',
  },
  {
    operationId: 'deleteEmployee',
    method: 'DELETE',
    paths: both('/employee/{id}'),
    handler: 'http/delete-employee.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: 'Deactivate an employee',
  },
  {
    operationId: 'getEmployeeStores',
    method: 'GET',
    paths: both('/employee/{id}/stores'),
    handler: 'http/get-employee-stores.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: "An employee's stores",
  },
  {
    operationId: 'putEmployeeStores',
    method: 'PUT',
    paths: both('/employee/{id}/stores'),
    handler: 'http/put-employee-stores.ts',
    api: 'public',
    table: ['read', 'write', 'delete'],
    queues: [],
    summary: "Replace an employee's stores (user token)",
  },
  {
    operationId: 'getEmployeeGroups',
    method: 'GET',
    paths: both('/employee/{id}/groups'),
    handler: 'http/get-employee-groups.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: "An employee's groups",
  },
  {
    operationId: 'putEmployeeGroups',
    method: 'PUT',
    paths: both('/employee/{id}/groups'),
    handler: 'http/put-employee-groups.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    summary: "Replace an employee's groups (user token)",
  },

  {
    operationId: 'postV2Transaction',
    method: 'POST',
    paths: ['/v2/transactions'],
    handler: 'http/post-v2-transaction.ts',
    api: 'public',
    // Only to check its key itself when the authorizer could not reach the table (and API Gateway cached that
    // answer): sales then queue again as soon as the table is back. The sale itself touches no table.
    table: ['read'],
    queues: ['transactions'],
    requestIds: true,
    summary: 'Queue a transaction (asynchronous; 201 with the sent object and x-request-id)',
  },
  {
    operationId: 'getTransactionRequest',
    method: 'GET',
    paths: ['/v2/transactions/requests/{requestId}'],
    handler: 'http/get-transaction-request.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    requestIds: true,
    summary: 'What became of a queued transaction',
  },
  {
    operationId: 'postTransaction',
    method: 'POST',
    paths: ['/public/transaction', '/public/transaction/integration', '/api/v1/transaction', '/api/v1/transaction/integration'],
    handler: 'http/post-transaction.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: ['surveyDispatch'],
    summary: 'Create a transaction synchronously (legacy interface)',
  },
  {
    operationId: 'getTransaction',
    method: 'GET',
    paths: both('/transaction/{id}'),
    handler: 'http/get-transaction.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'Read a transaction',
  },

  {
    operationId: 'listEvaluations',
    cursors: true,
    method: 'GET',
    paths: both('/rating/formbuilder'),
    handler: 'http/list-evaluations.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'Flexible-form ratings between start_date and end_date (user token)',
  },
  {
    operationId: 'getEvaluation',
    method: 'GET',
    paths: both('/rating/formbuilder/{id}'),
    handler: 'http/get-evaluation.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'One flexible-form rating (is_external: by transaction_id)',
  },
  {
    operationId: 'getResults',
    method: 'GET',
    paths: ['/public/results'],
    handler: 'http/get-results.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'NPS, mean, answers and response rate of a journey by store, employee, class or period (user token)',
  },
  {
    operationId: 'listWebhookDeliveries',
    method: 'GET',
    paths: ['/public/webhooks/deliveries'],
    handler: 'http/list-webhook-deliveries.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: 'The event deliveries to the tenant webhooks that failed in the last 30 days, newest first',
  },

  {
    operationId: 'postPrivacyRequest',
    method: 'POST',
    paths: ['/public/privacy/requests'],
    handler: 'http/post-privacy-request.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: ['privacy'],
    summary: "A data subject's request (LGPD): export or erase their data, worked on from a queue (user token with every store)",
  },
  {
    operationId: 'getPrivacyRequest',
    method: 'GET',
    paths: ['/public/privacy/requests/{id}'],
    handler: 'http/get-privacy-request.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary:
      'A privacy request: pending (an erasure until its second pass, about two minutes on), done with the customers it found, or failed (user token with every store)',
  },
  {
    operationId: 'getPrivacyExport',
    method: 'GET',
    paths: ['/public/privacy/requests/{id}/export'],
    handler: 'http/get-privacy-export.ts',
    api: 'public',
    table: ['read', 'batchWrite'],
    queues: [],
    summary: 'Everything kept about the customers an export request found, for 7 days after it is done (user token with every store)',
  },

  {
    operationId: 'getPrivacyAccess',
    method: 'GET',
    paths: ['/public/privacy/access'],
    handler: 'http/get-privacy-access.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    summary: "Who read a customer's personal data, when and how, newest first, for a year (user token with every store)",
  },

  {
    operationId: 'getSurvey',
    method: 'GET',
    paths: ['/survey'],
    handler: 'http/get-survey.ts',
    api: 'chatbot',
    table: ['read'],
    queues: [],
    summary: 'The survey of one attempt, for the chatbot',
  },
  {
    operationId: 'postSurvey',
    method: 'POST',
    paths: ['/survey'],
    handler: 'http/post-survey.ts',
    api: 'chatbot',
    table: ['read', 'write'],
    queues: ['events'],
    summary: 'Answer a survey attempt',
  },
  {
    operationId: 'putSurvey',
    method: 'PUT',
    paths: ['/survey'],
    handler: 'http/put-survey.ts',
    api: 'chatbot',
    table: ['read', 'write'],
    queues: ['events'],
    summary: 'Correct the answer of a survey attempt',
  },

  {
    operationId: 'getSurveyPage',
    method: 'GET',
    paths: ['/s/{token}'],
    handler: 'http/get-survey-page.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    anonymous: true,
    surveyLinks: true,
    page: true,
    summary: 'The survey page of a link (score=N preselects a score and records nothing)',
  },
  {
    operationId: 'postSurveyPage',
    method: 'POST',
    paths: ['/s/{token}'],
    handler: 'http/post-survey-page.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: ['events'],
    anonymous: true,
    surveyLinks: true,
    page: true,
    summary: "Record the customer's answer (form post)",
  },
  {
    operationId: 'getUnsubscribePage',
    method: 'GET',
    paths: ['/s/{token}/unsubscribe'],
    handler: 'http/get-unsubscribe-page.ts',
    api: 'public',
    table: ['read'],
    queues: [],
    anonymous: true,
    surveyLinks: true,
    page: true,
    summary: 'Ask the customer to confirm opting out of surveys',
  },
  {
    operationId: 'postUnsubscribe',
    method: 'POST',
    paths: ['/s/{token}/unsubscribe'],
    handler: 'http/post-unsubscribe.ts',
    api: 'public',
    table: ['read', 'write'],
    queues: [],
    anonymous: true,
    surveyLinks: true,
    page: true,
    summary: 'Opt the customer out of surveys (also RFC 8058 one-click)',
  },
];

/** The providers a consumer sends through, for its grants. */
export type Provider = 'ses' | 'sms' | 'whatsapp';

/** Queue consumers: each reads one queue in batches and reports failed records one by one. */
export interface Consumer {
  id: string;
  handler: string;
  queue: QueueId;
  table: TableAccess;
  sends: readonly QueueId[];
  surveyLinks?: true;
  /** Signs v2 request ids (the rejection events carry the one the tenant was given). */
  requestIds?: true;
  providers?: readonly Provider[];
  summary: string;
}

export const consumers: readonly Consumer[] = [
  {
    id: 'transactionConsumer',
    handler: 'queue/transaction-consumer.ts',
    queue: 'transactions',
    table: ['read', 'write'],
    sends: ['surveyDispatch', 'events'],
    requestIds: true,
    summary: 'Registers queued transactions and dispatches their surveys',
  },
  {
    id: 'surveyDispatcher',
    handler: 'queue/survey-dispatcher.ts',
    queue: 'surveyDispatch',
    table: ['read', 'write'],
    // Later attempts, and attempts held for quiet hours, go back on its own queue (delayed) or to the table.
    sends: ['surveyDispatch', 'events'],
    surveyLinks: true,
    providers: ['ses', 'sms', 'whatsapp'],
    summary: "Sends each survey attempt on its channel (e-mail, SMS, WhatsApp) or to the tenant's chatbot, once",
  },
  {
    id: 'eventWebhooks',
    handler: 'queue/event-webhooks.ts',
    queue: 'events',
    table: ['read', 'write'],
    // A failed delivery goes back on its own queue, delayed; the failure is recorded for the tenant to list.
    sends: ['events'],
    surveyLinks: true,
    summary: "Delivers each event to the tenant's webhook endpoint, signed; retries for about two days, then dead-letters",
  },
  {
    id: 'privacyRequests',
    handler: 'queue/privacy-requests.ts',
    queue: 'privacy',
    table: ['read', 'write', 'delete'],
    // The second pass of an erasure, two minutes later (ERASURE_RECHECK_SECONDS), is a delayed message on its own queue.
    sends: ['privacy'],
    summary: 'Works on privacy requests: finds the customers they name, erases them or makes their export readable',
  },
];

/** Functions run on a schedule (an EventBridge rule in AWS, a timer in the local stack). */
export interface Scheduled {
  id: string;
  handler: string;
  everyMinutes: number;
  /** How long a run may take; the queue consumers' timeout when absent. */
  timeoutSeconds?: number;
  table: TableAccess;
  sends: readonly QueueId[];
  summary: string;
}

export const scheduled: readonly Scheduled[] = [
  {
    id: 'attemptScheduler',
    handler: 'schedule/release-attempts.ts',
    everyMinutes: 1,
    table: ['read', 'write', 'batchWrite'],
    sends: ['surveyDispatch'],
    summary: 'Releases the survey attempts due in the next minutes onto the dispatch queue',
  },
  {
    id: 'personalCopiesExpiry',
    handler: 'schedule/expire-personal-copies.ts',
    everyMinutes: 15,
    timeoutSeconds: 300,
    table: ['read', 'write'],
    sends: [],
    summary: "Removes transactions' personal copies (customer name, contacts, comment) past their tenant's retention",
  },
];

/** Functions another AWS service invokes with its notifications: SES's bounces and complaints, through SNS. */
export interface Notified {
  id: string;
  handler: string;
  table: TableAccess;
  sends: readonly QueueId[];
  summary: string;
}

export const notified: readonly Notified[] = [
  {
    id: 'sesEvents',
    handler: 'queue/ses-events.ts',
    table: ['write'],
    sends: [],
    summary: 'SES bounces and complaints of survey e-mails: suppress the address, opt complainers out',
  },
];

/** The authorizer of each API: the key scope it accepts. */
export const authorizers: Record<ApiName, { handler: string; scope: ApiName }> = {
  public: { handler: 'auth/public-authorizer.ts', scope: 'public' },
  chatbot: { handler: 'auth/chatbot-authorizer.ts', scope: 'chatbot' },
};

/**
 * The pages each API serves without a key (its OpenAPI document, /docs, and on the public API the results page,
 * with their assets): one function per API, bundled with that API's files, which are written at build time. Not
 * operations of the document.
 */
export const reference = { handler: 'http/get-reference.ts', paths: REFERENCE_ROUTES, publicPaths: [RESULTS_ROUTE] } as const;

/** The reference paths one API serves. */
export const referencePaths = (api: ApiName): readonly string[] => [...reference.paths, ...(api === 'public' ? reference.publicPaths : [])];
