import type { QueueId } from '../shared/queues.js';

/**
 * The route table: every operation of both APIs, as plain data. The CDK stack, the local gateway, the infra tests
 * (and the OpenAPI document) read it; a path or a method is written nowhere else.
 */
export type ApiName = 'public' | 'chatbot';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface Route {
  operationId: string;
  method: Method;
  /** The first path is the canonical one; the others are aliases served by the same function. */
  paths: readonly string[];
  /** Module under functions/ exporting `handler`. */
  handler: string;
  api: ApiName;
  /** Table access: 'none' for routes that must not touch it (POST /v2/transactions). */
  table: 'none' | 'read' | 'readwrite';
  queues: readonly QueueId[];
  /** Issues or reads v2 request ids, which are signed (ENV.requestIdSecret). */
  requestIds?: true;
  /** Only /health is reachable without an API key. */
  anonymous?: true;
  summary: string;
}

const both = (path: string) => [`/public${path}`, path];

export const routes: readonly Route[] = [
  {
    operationId: 'getHealth',
    method: 'GET',
    paths: ['/health'],
    handler: 'http/get-health.ts',
    api: 'public',
    table: 'read',
    queues: [],
    anonymous: true,
    summary: 'Whether the service can reach its table',
  },

  {
    operationId: 'listStores',
    method: 'GET',
    paths: both('/store'),
    handler: 'http/list-stores.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'List stores (filters: status, name, store_id)',
  },
  {
    operationId: 'createStore',
    method: 'POST',
    paths: both('/store'),
    handler: 'http/create-store.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Create a store',
  },
  {
    operationId: 'getStore',
    method: 'GET',
    paths: both('/store/{id}'),
    handler: 'http/get-store.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'Read a store',
  },
  {
    operationId: 'updateStore',
    method: 'PUT',
    paths: both('/store/{id}'),
    handler: 'http/update-store.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Edit a store',
  },
  {
    operationId: 'deleteStore',
    method: 'DELETE',
    paths: both('/store/{id}'),
    handler: 'http/delete-store.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Deactivate a store',
  },

  {
    operationId: 'listCustomers',
    method: 'GET',
    paths: both('/customer'),
    handler: 'http/list-customers.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'List customers (user token; filters: name, email, phone, cpf, client_id, opt_out)',
  },
  {
    operationId: 'createCustomer',
    method: 'POST',
    paths: both('/customer'),
    handler: 'http/create-customer.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Create a customer',
  },
  {
    operationId: 'getCustomer',
    method: 'GET',
    paths: both('/customer/{id}'),
    handler: 'http/get-customer.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'Read a customer',
  },
  {
    operationId: 'updateCustomer',
    method: 'PUT',
    paths: both('/customer/{id}'),
    handler: 'http/update-customer.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Edit a customer',
  },

  {
    operationId: 'listEmployees',
    method: 'GET',
    paths: both('/employee'),
    handler: 'http/list-employees.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'List employees (filters: name, email, id, store, external_store_id, status)',
  },
  {
    operationId: 'createEmployee',
    method: 'POST',
    paths: both('/employee'),
    handler: 'http/create-employee.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Create an employee',
  },
  {
    operationId: 'getEmployee',
    method: 'GET',
    paths: both('/employee/{id}'),
    handler: 'http/get-employee.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'Read an employee',
  },
  {
    operationId: 'updateEmployee',
    method: 'PUT',
    paths: both('/employee/{id}'),
    handler: 'http/update-employee.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Edit an employee',
  },
  {
    operationId: 'deleteEmployee',
    method: 'DELETE',
    paths: both('/employee/{id}'),
    handler: 'http/delete-employee.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: 'Deactivate an employee',
  },
  {
    operationId: 'getEmployeeStores',
    method: 'GET',
    paths: both('/employee/{id}/stores'),
    handler: 'http/get-employee-stores.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: "An employee's stores",
  },
  {
    operationId: 'putEmployeeStores',
    method: 'PUT',
    paths: both('/employee/{id}/stores'),
    handler: 'http/put-employee-stores.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: "Replace an employee's stores (user token)",
  },
  {
    operationId: 'getEmployeeGroups',
    method: 'GET',
    paths: both('/employee/{id}/groups'),
    handler: 'http/get-employee-groups.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: "An employee's groups",
  },
  {
    operationId: 'putEmployeeGroups',
    method: 'PUT',
    paths: both('/employee/{id}/groups'),
    handler: 'http/put-employee-groups.ts',
    api: 'public',
    table: 'readwrite',
    queues: [],
    summary: "Replace an employee's groups (user token)",
  },

  {
    operationId: 'postV2Transaction',
    method: 'POST',
    paths: ['/v2/transactions'],
    handler: 'http/post-v2-transaction.ts',
    api: 'public',
    table: 'none',
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
    table: 'read',
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
    table: 'readwrite',
    queues: ['surveyDispatch'],
    summary: 'Create a transaction synchronously (legacy interface)',
  },
  {
    operationId: 'getTransaction',
    method: 'GET',
    paths: both('/transaction/{id}'),
    handler: 'http/get-transaction.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'Read a transaction',
  },

  {
    operationId: 'listEvaluations',
    method: 'GET',
    paths: both('/rating/formbuilder'),
    handler: 'http/list-evaluations.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'Flexible-form ratings between start_date and end_date (user token)',
  },
  {
    operationId: 'getEvaluation',
    method: 'GET',
    paths: both('/rating/formbuilder/{id}'),
    handler: 'http/get-evaluation.ts',
    api: 'public',
    table: 'read',
    queues: [],
    summary: 'One flexible-form rating (is_external: by transaction_id)',
  },

  {
    operationId: 'getSurvey',
    method: 'GET',
    paths: ['/survey'],
    handler: 'http/get-survey.ts',
    api: 'chatbot',
    table: 'read',
    queues: [],
    summary: 'The survey of one attempt, for the chatbot',
  },
  {
    operationId: 'postSurvey',
    method: 'POST',
    paths: ['/survey'],
    handler: 'http/post-survey.ts',
    api: 'chatbot',
    table: 'readwrite',
    queues: [],
    summary: 'Answer a survey attempt',
  },
  {
    operationId: 'putSurvey',
    method: 'PUT',
    paths: ['/survey'],
    handler: 'http/put-survey.ts',
    api: 'chatbot',
    table: 'readwrite',
    queues: [],
    summary: 'Correct the answer of a survey attempt',
  },
];

/** Queue consumers: each reads one queue in batches and reports failed records one by one. */
export interface Consumer {
  id: string;
  handler: string;
  queue: QueueId;
  table: 'read' | 'readwrite';
  sends: readonly QueueId[];
  summary: string;
}

export const consumers: readonly Consumer[] = [
  {
    id: 'transactionConsumer',
    handler: 'queue/transaction-consumer.ts',
    queue: 'transactions',
    table: 'readwrite',
    sends: ['surveyDispatch'],
    summary: 'Registers queued transactions and dispatches their surveys',
  },
];

/** The authorizer of each API: the key scope it accepts. */
export const authorizers: Record<ApiName, { handler: string; scope: ApiName }> = {
  public: { handler: 'auth/public-authorizer.ts', scope: 'public' },
  chatbot: { handler: 'auth/chatbot-authorizer.ts', scope: 'chatbot' },
};
