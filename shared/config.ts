/**
 * Every environment variable the functions read, named once. Each function checks what it needs at module load
 * (requireEnvs in the wiring module it imports), so that a missing variable fails the cold start, not a request.
 */
export const ENV = {
  tableName: 'TABLE_NAME',
  transactionQueueUrl: 'TRANSACTION_QUEUE_URL',
  surveyDispatchQueueUrl: 'SURVEY_DISPATCH_QUEUE_URL',
  eventQueueUrl: 'EVENT_QUEUE_URL',
  privacyQueueUrl: 'PRIVACY_QUEUE_URL',
  caseQueueUrl: 'CASE_QUEUE_URL',
  caseDeadlineQueueUrl: 'CASE_DEADLINE_QUEUE_URL',
  exportQueueUrl: 'EXPORT_QUEUE_URL',
  analysisQueueUrl: 'ANALYSIS_QUEUE_URL',
  digestQueueUrl: 'DIGEST_QUEUE_URL',
  analyticsQueueUrl: 'ANALYTICS_QUEUE_URL',
  chatQueueUrl: 'CHAT_QUEUE_URL',
  scoreDropQueueUrl: 'SCORE_DROP_QUEUE_URL',
  keyScope: 'KEY_SCOPE',
  /** Signs the request ids POST /v2/transactions hands out, so that GET can tell an id it never issued. */
  requestIdSecret: 'REQUEST_ID_SECRET',
  /** Signs survey links and derives each webhook endpoint's signing secret. */
  surveySecret: 'SURVEY_SECRET',
  /** Seals list cursors (they carry table keys): the client can neither read nor alter them. */
  cursorSecret: 'CURSOR_SECRET',
  /** The public API's base URL, which survey links open (a stack output; locally http://localhost:3000). */
  surveyBaseUrl: 'SURVEY_BASE_URL',
  /** The tenants' logos' S3 bucket (a stack output; locally the S3-compatible server's bucket). */
  logoBucket: 'LOGO_BUCKET',
  /** The workspace's answer exports' S3 bucket, whose files expire after a day (a stack output; locally the S3-compatible server's). */
  exportBucket: 'EXPORT_BUCKET',
  /** The analytics bucket: each tenant's daily Parquet files (shared/analytics/), read by Athena (a stack output; locally the S3-compatible server's). */
  analyticsBucket: 'ANALYTICS_BUCKET',
  /** Optional: the wait between an erasure's two passes (shared/privacy/service.ts); the local stack shortens it. */
  erasureRecheckSeconds: 'ERASURE_RECHECK_SECONDS',
  /** Optional: how long a link of an analytics chain writes (shared/analytics/chain.ts, LINK_SECONDS); the tests shorten it. */
  analyticsLinkSeconds: 'ANALYTICS_LINK_SECONDS',
  /**
   * The Cognito user pool managers sign in with: its token issuer (`https://cognito-idp.<region>.amazonaws.com/<pool
   * id>` on AWS, the emulator's URL locally), whose JWKS verifies the session, and the web app client's id.
   */
  userPoolIssuer: 'USER_POOL_ISSUER',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /** The user pool's id: for the admin command's create-user only (no function administers users). */
  userPoolId: 'USER_POOL_ID',
  /**
   * Set to 1 by the local stack only (infra/local/stack.ts), never by the CDK stack: tenants' webhooks may then use
   * http and this machine's addresses (the local outbox). Absent, as on AWS, they must be https on a public host.
   */
  localDeployment: 'LOCAL_DEPLOYMENT',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];

/**
 * The deployment's secrets. A function is given each one it needs as the ARN of a Secrets Manager secret, in the
 * variable named `<NAME>_ARN`, never as a value (anyone allowed lambda:GetFunctionConfiguration reads a function's
 * environment); it reads the value at cold start (shared/adapters/secrets.ts).
 */
export const SECRET_NAMES = [ENV.requestIdSecret, ENV.surveySecret, ENV.cursorSecret] as const;
export type SecretName = (typeof SECRET_NAMES)[number];
export const secretArnVariable = (name: SecretName): string => `${name}_ARN`;
const isSecret = (name: EnvName): name is SecretName => (SECRET_NAMES as readonly EnvName[]).includes(name);

export function requireEnv(name: EnvName): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing environment variable ${name}`);
  return value;
}

/**
 * In a function's runtime (Lambda sets AWS_LAMBDA_FUNCTION_NAME), fails at once, in one line naming every variable
 * that is missing, when any of `names` is not set: module load is the cold start. Elsewhere a module may be loaded
 * only for its contract (the route table, `cdk synth`, the OpenAPI document), and its configuration is not needed.
 */
export function requireEnvs(...names: EnvName[]): void {
  if (!process.env.AWS_LAMBDA_FUNCTION_NAME) return;
  // A secret is present once its value is read, or its ARN given (read by loadSecrets before the first request).
  const missing = names.filter((name) => !process.env[name] && !(isSecret(name) && process.env[secretArnVariable(name)]));
  if (missing.length) throw new Error(`Missing environment variable${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`);
}

/**
 * A variable a module needs: checked at load in a function runtime (a missing one fails the cold start), read when
 * first used elsewhere, so that loading the module only for its contract (the OpenAPI document) needs no configuration.
 */
export function configured(name: EnvName): () => string {
  requireEnvs(name);
  return () => requireEnv(name);
}

/**
 * One of a wiring's compositions, built when its module loads (a cold start: `build` checks the variables it needs
 * first). Called as `/* @__PURE__ *\/ wire(() => ...)`: a bundle then drops every composition its function does not
 * use, with its check and the adapters only it imports, and keeps the check of each one it uses.
 */
export const wire = <T>(build: () => T): T => build();

/** Whether this is the local stack (see ENV.localDeployment), read when asked so that a test can play AWS. */
export const isLocalDeployment = (): boolean => process.env[ENV.localDeployment] === '1';
