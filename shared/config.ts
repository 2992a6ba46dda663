/** Every environment variable the functions read, named once. Read at module load and fail fast. */
export const ENV = {
  tableName: 'TABLE_NAME',
  transactionQueueUrl: 'TRANSACTION_QUEUE_URL',
  surveyDispatchQueueUrl: 'SURVEY_DISPATCH_QUEUE_URL',
  keyScope: 'KEY_SCOPE',
  /** Signs the request ids POST /v2/transactions hands out, so that GET can tell an id it never issued. */
  requestIdSecret: 'REQUEST_ID_SECRET',
  /** Signs survey links and derives each tenant's webhook secret. */
  surveySecret: 'SURVEY_SECRET',
  /** The public API's base URL, which survey links open (a stack output; locally http://localhost:3000). */
  surveyBaseUrl: 'SURVEY_BASE_URL',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];

export function requireEnv(name: EnvName): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}
