import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENV } from '../shared/config.js';
import { NewKeyBody } from '../shared/access/api-keys.js';
import { NotFoundError } from '../shared/errors.js';
import { parseTenantFile } from '../shared/tenants/tenant-file.js';
import * as v from 'valibot';
import { FirstStoreConfig } from '../shared/tenants/config-schema.js';
import { describeIssue } from '../shared/schema.js';
import { apiKeys, keyOfValue } from '../shared/adapters/wiring/access.js';
import { webhookRotation } from '../shared/adapters/wiring/events.js';
import { tenantService } from '../shared/adapters/wiring/tenants.js';
import { listTenants } from '../shared/adapters/tenant-repository.js';
import { indexAnswers } from '../shared/adapters/answer-repository.js';
import { indexCaseNumbers, indexCases } from '../shared/adapters/case-repository.js';
import { commentReanalysis } from '../shared/adapters/wiring/themes.js';
import { calendarDate } from '../shared/schema.js';
import { SQSClient } from '@aws-sdk/client-sqs';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { ASYNC_FAILURES, QUEUES, type QueueId } from '../shared/queues.js';
import { LOCAL_ANALYTICS_BUCKET, LOCAL_CREDENTIALS, LOCAL_LOGO_BUCKET, LOCAL_REGION } from './local/services.js';
import { MAX_PERIOD_DAYS, periodFault } from '../shared/dates.js';
import { queueUrl, redrive, redriveAsyncFailures } from './redrive.js';
import { notified, scheduled } from './routes.js';
import { applyTenantFile, planTenantFile } from './apply-tenant.js';
import { ROTATION_OVERLAP_HOURS } from '../shared/events/signature.js';
import { randomBytes } from 'node:crypto';
import type { UserScope } from '../shared/tenants/config-schema.js';
import { inviteManager } from '../shared/session/managers.js';
import { cognitoUserDirectory } from '../shared/adapters/cognito.js';
import { setupUserPool, USER_POOL_NAME } from './local/cognito.js';
import { LOCAL_TABLE_NAME, localPort, type LocalPortName } from './local/ports.js';

// The SDK warns that its 2027 releases need Node 22; Lambda runs 24, and this machine's Node 20 is supported until then.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const HELP = `Usage: npm run admin -- <command> [options]

Commands:
  create-tenant --name NAME --store STORE [--employee EMPLOYEE] [--id ID]
                                             create a tenant with its store 1 named STORE (the name customers read in
                                             their surveys) and employee 1 named EMPLOYEE (the store's name when absent)
  list-tenants
  issue-key --tenant ID --scope public|chatbot|admin [--name NAME] [--expires-at 2027-01-01T00:00:00Z]
                                             print a new API key (shown once; only its hash is stored); written to the
                                             tenant's audit log
  list-keys --tenant ID                      key ids, scopes and revocation (never the keys)
  revoke-key --key KEY | --tenant ID --key-id KEY_ID
                                             refused from the next request; written to the tenant's audit log
  create-user --tenant ID --name NAME (--all | --stores 1,2 --groups 1)
                                             print a new user token (shown once); replaces a user of that name
  create-user --tenant ID --email EMAIL (--all | --stores 1,2 --groups 1)
                                             a manager who signs in to the workspace (/app/): the tenant user of that
                                             e-mail with this scope, and its Cognito user, invited with a temporary
                                             password (on AWS Cognito e-mails it; locally it is shown here)
  apply FILE [--yes]                         print what a declarative tenant file (journeys, classes, groups, users, keys,
                                             brand) changes, field by field (old -> new; secrets only "changed"), naming
                                             each field changed on the admin pages/API since the last apply; changes
                                             nothing without --yes. With --yes, applies it: uploads the brand's logo (a
                                             path relative to FILE) to the logo bucket (${ENV.logoBucket}); shows each new
                                             webhook endpoint's signing secret once
  rotate-webhook-secret --tenant ID (--chatbot | --url URL) [--overlap-hours H]
                                             a new signing secret for the chatbot hand-off or the event endpoint at URL,
                                             shown once; for H hours (default ${ROTATION_OVERLAP_HOURS.default}, 0 to ${ROTATION_OVERLAP_HOURS.max}) deliveries carry
                                             both the new and the old signature, then the new one only
  index-answers --tenant ID [--since YYYY-MM]
                                             list in GET /public/answers the answers stored before its indexes existed,
                                             from that month (default: 13 months ago) to this one; safe to run again
  reanalyse --tenant ID --from YYYY-MM-DD [--to YYYY-MM-DD]
                                             apply the tenant's current themes to the comments answered in that
                                             period (default to: today), moving their counts; stopped, the same
                                             command continues where it was; safe to run again
  index-cases --tenant ID                    list by owner (GET /public/cases?owner=...) the cases stored before a
                                             case had one owner (each reads as its one person's, or unassigned), and
                                             make the cases numbered before numbers had their entry findable by
                                             number (?number=); safe to run again
  export --tenant ID --from YYYY-MM-DD --to YYYY-MM-DD [--force]
                                             write the tenant's analytics days (its time zone) as Parquet to the
                                             analytics bucket (${ENV.analyticsBucket}; docs/analytics.md), in order; a day
                                             already written is skipped unless --force, so a run stopped half-way resumes;
                                             then the days late changes marked, up to --to, written again
  redrive transactions|surveyDispatch|events|privacy [--dlq-url URL --source-url URL]
                                             move a dead-letter queue's messages back to their queue (on AWS, give the
                                             URLs from the stack outputs; locally the queues are found by name)
  redrive asyncFailures [--dlq-url URL]      invoke again, asynchronously, each failed scheduled run or SES event
                                             recorded on the async-failure queue (on AWS, --dlq-url is the output
                                             AsyncFailureQueueUrl; locally the function runs in this process)

Webhook secrets derive from the stack's survey secret: apply and rotate-webhook-secret show them when ${ENV.surveySecret}
is set to it (rotate-webhook-secret refuses to run without it).

Target: with ${ENV.tableName} set (and no DYNAMODB_PORT), the table of that name in AWS (credentials and region as
the AWS SDK finds them), and for --email the user pool ${ENV.userPoolId} (the data stack's output UserPoolId);
otherwise the local stack that npm start runs with the same variables: DynamoDB Local at DYNAMODB_PORT (8000), table
${ENV.tableName} (survey-service), S3 at S3_PORT (8007), SQS at SQS_PORT (9324), Comprehend at COMPREHEND_PORT (8008),
Cognito at COGNITO_PORT (9229, pool ${USER_POOL_NAME}); an AWS_ENDPOINT_URL_<SERVICE> set wins. A stack started on
other ports: export those variables in the shell of both commands.`;

class UsageError extends Error {}

/** The operator's changes are written to the tenant's audit log under this actor. */
const OPERATOR = { operator: true } as const;

/** The option a key field comes from. */
const optionOf = (issue: v.BaseIssue<unknown>) =>
  ({ expires_at: 'expires-at' })[String(issue.path?.[0]?.key)] ?? String(issue.path?.[0]?.key);

/** A key id of no key of the tenant is the operator's typo: undefined, for a usage message. */
const unlessNotFound = (error: unknown) => {
  if (error instanceof NotFoundError) return undefined;
  throw error;
};

/**
 * Local when no table in AWS is named, or when a local port is (`npm start`'s variables, read as it reads them:
 * `TABLE_NAME` then names the local table).
 */
const isLocal = () => !process.env[ENV.tableName] || process.env.DYNAMODB_PORT !== undefined;

function target(): string {
  if (!isLocal())
    return `table ${process.env[ENV.tableName]} in AWS${process.env.AWS_ENDPOINT_URL_DYNAMODB ? ` at ${process.env.AWS_ENDPOINT_URL_DYNAMODB}` : ''}`;
  const local = (name: LocalPortName) => `http://127.0.0.1:${localPort(name)}`;
  process.env[ENV.tableName] ??= LOCAL_TABLE_NAME;
  process.env.AWS_ENDPOINT_URL_DYNAMODB ??= local('DYNAMODB_PORT');
  process.env.AWS_ENDPOINT_URL_S3 ??= local('S3_PORT');
  process.env.AWS_ENDPOINT_URL_SQS ??= local('SQS_PORT');
  process.env.AWS_ENDPOINT_URL_COMPREHEND ??= local('COMPREHEND_PORT');
  process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER ??= local('COGNITO_PORT');
  process.env[ENV.logoBucket] ??= LOCAL_LOGO_BUCKET;
  process.env[ENV.analyticsBucket] ??= LOCAL_ANALYTICS_BUCKET;
  // The local stack's rules: a tenant file may point its webhooks at the outbox (http on this machine).
  process.env[ENV.localDeployment] ??= '1';
  process.env.AWS_REGION ??= LOCAL_REGION;
  process.env.AWS_ACCESS_KEY_ID ??= LOCAL_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY ??= LOCAL_CREDENTIALS.secretAccessKey;
  return `local table ${process.env[ENV.tableName]} at ${process.env.AWS_ENDPOINT_URL_DYNAMODB}`;
}

const integer = (value: string | undefined, name: string): number => {
  if (value === undefined || !/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${name} must be a positive integer.`);
  return Number(value);
};
const ids = (value: string | undefined, name: string): number[] => (value ? value.split(',').map((id) => integer(id.trim(), name)) : []);

async function run(argv: string[]): Promise<void> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      store: { type: 'string' },
      employee: { type: 'string' },
      id: { type: 'string' },
      tenant: { type: 'string' },
      scope: { type: 'string' },
      key: { type: 'string' },
      'key-id': { type: 'string' },
      all: { type: 'boolean' },
      stores: { type: 'string' },
      groups: { type: 'string' },
      help: { type: 'boolean' },
      'dlq-url': { type: 'string' },
      'source-url': { type: 'string' },
      chatbot: { type: 'boolean' },
      url: { type: 'string' },
      'overlap-hours': { type: 'string' },
      since: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      'expires-at': { type: 'string' },
      yes: { type: 'boolean' },
      force: { type: 'boolean' },
    },
  });
  const [command, file] = positionals;
  if (!command || command === 'help' || values.help) return console.log(HELP);
  const local = isLocal();
  console.error(`admin: using ${target()}`);
  switch (command) {
    case 'create-tenant': {
      if (!values.name) throw new UsageError('--name is required.');
      if (!values.store)
        throw new UsageError('--store is required: the name of the first store, as customers know it (e.g. --store "Loja Centro").');
      const first = v.safeParse(FirstStoreConfig, { store: values.store, employee: values.employee });
      if (!first.success)
        throw new UsageError(first.issues.map((issue) => `--${String(issue.path?.[0]?.key)} ${describeIssue(issue)}.`).join(' '));
      const tenant = await tenantService.createTenant(values.name, first.output, values.id ? integer(values.id, 'id') : undefined);
      return console.log(`tenant ${tenant.id} "${tenant.name}" created, with store 1 "${first.output.store}" and employee 1`);
    }
    case 'list-tenants':
      for (const tenant of await listTenants()) console.log(`${tenant.id}\t${tenant.name}\t${tenant.created_at}`);
      return;
    case 'issue-key': {
      const tenantId = integer(values.tenant, 'tenant');
      const body = v.safeParse(NewKeyBody, {
        scope: values.scope,
        name: values.name ?? `${values.scope} key (operator)`,
        ...(values['expires-at'] ? { expires_at: values['expires-at'] } : {}),
      });
      if (!body.success) throw new UsageError(body.issues.map((issue) => `--${optionOf(issue)} ${describeIssue(issue)}.`).join(' '));
      if (!(await tenantService.getTenant(tenantId))) throw new UsageError(`tenant ${tenantId} does not exist.`);
      const issued = await apiKeys.issueKey(tenantId, { body: body.output, actor: OPERATOR });
      return console.log(`${issued.scope} key ${issued.id} for tenant ${tenantId} (shown once, store it now):\n${issued.key}`);
    }
    case 'list-keys':
      for (const key of await apiKeys.listKeys(integer(values.tenant, 'tenant'))) {
        console.log(`${key.id}\t${key.scope}\tcreated ${key.created_at}\t${key.revoked_at ? `revoked ${key.revoked_at}` : 'active'}`);
      }
      return;
    case 'revoke-key': {
      if (!values.key && !values['key-id']) throw new UsageError('give --key KEY, or --tenant ID --key-id KEY_ID.');
      const key = values.key ? await keyOfValue(values.key) : { tenantId: integer(values.tenant, 'tenant'), keyId: values['key-id'] ?? '' };
      const revoked = key && (await apiKeys.revokeKey(key.tenantId, { keyId: key.keyId, actor: OPERATOR }).catch(unlessNotFound));
      if (!key || !revoked) throw new UsageError('no such key.');
      // The HTTP wrapper reads the key again on every request API Gateway answers from its cache, so this holds.
      return console.log(`key ${revoked.id} of tenant ${key.tenantId} revoked: refused from the next request; recorded in the audit log`);
    }
    case 'create-user': {
      if (!values.name === !values.email) throw new UsageError('give --name (a user token) or --email (a manager who signs in).');
      if (!values.all && !values.stores && !values.groups) throw new UsageError('give --all, or --stores and/or --groups.');
      const scope = values.all ? ('all' as const) : { stores: ids(values.stores, 'stores'), groups: ids(values.groups, 'groups') };
      const tenantId = integer(values.tenant, 'tenant');
      // A user of no tenant would be written all the same, and sign in nowhere.
      if (!(await tenantService.getTenant(tenantId))) throw new UsageError(`tenant ${tenantId} does not exist.`);
      if (values.email) return console.log(await createManager(local, tenantId, values.email, scope));
      if (!values.name) throw new UsageError('--name is required.');
      const user = await tenantService.createUser(tenantId, { name: values.name, scope });
      return console.log(`user "${user.name}" created; token (shown once, store it now):\n${user.token}`);
    }
    case 'apply': {
      if (!file) throw new UsageError('apply needs a file: npm run admin -- apply tenants.json');
      const parsed = parseTenantFile(readFileSync(file, 'utf8'));
      const dir = dirname(resolve(file));
      // CI has no stdin: the plan is the answer until the operator gives --yes; nothing ever prompts.
      for (const tenant of parsed.tenants) for (const line of await planTenantFile(tenant, dir)) console.log(line);
      if (!values.yes) return console.log('Nothing was changed. Run again with --yes to apply this plan.');
      console.log('Applying:');
      for (const tenant of parsed.tenants) for (const line of await applyTenantFile(tenant, dir)) console.log(line);
      return;
    }
    case 'rotate-webhook-secret': {
      if (!values.chatbot === !values.url) throw new UsageError('give --chatbot, or --url URL of an event endpoint.');
      const overlap = values['overlap-hours'] ?? String(ROTATION_OVERLAP_HOURS.default);
      if (!/^\d+(\.\d+)?$/.test(overlap) || Number(overlap) > ROTATION_OVERLAP_HOURS.max)
        throw new UsageError(`--overlap-hours must be a number from 0 to ${ROTATION_OVERLAP_HOURS.max}.`);
      const rotated = await webhookRotation.rotateWebhookSecret(integer(values.tenant, 'tenant'), {
        target: values.url ?? 'chatbot',
        overlapHours: Number(overlap),
      });
      return console.log(
        `${rotated.label}: signing secret generation ${rotated.generation} (shown once, store it now):\n${rotated.secret}\n` +
          `the previous secret also signs until ${rotated.oldSignsUntil}`,
      );
    }
    case 'index-answers': {
      const now = new Date();
      const since = values.since ?? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 13, 1)).toISOString().slice(0, 7);
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(since) || since > now.toISOString().slice(0, 7))
        throw new UsageError('--since must be a month (YYYY-MM), not after this one.');
      const months: string[] = [];
      for (let m = new Date(`${since}-01T00:00:00Z`); m <= now; m.setUTCMonth(m.getUTCMonth() + 1))
        months.push(m.toISOString().slice(0, 7));
      const indexed = await indexAnswers(integer(values.tenant, 'tenant'), months);
      return console.log(`${indexed} answers indexed (${months[0]} to ${months[months.length - 1]})`);
    }
    case 'reanalyse': {
      const from = v.safeParse(calendarDate, values.from);
      const to = v.safeParse(calendarDate, values.to ?? new Date().toISOString().slice(0, 10));
      if (!from.success || !to.success || from.output > to.output)
        throw new UsageError('--from and --to must be days (YYYY-MM-DD), --from not after --to.');
      await commentReanalysis(integer(values.tenant, 'tenant'), { from: from.output, to: to.output }, (line) => console.log(line));
      return;
    }
    case 'export': {
      const tenantId = integer(values.tenant, 'tenant');
      const [from, to] = [values.from, values.to];
      if (!from || !to || periodFault(from, to))
        throw new UsageError(`--from and --to must be days (YYYY-MM-DD), in order, at most ${MAX_PERIOD_DAYS} apart.`);
      if (!(await tenantService.getTenant(tenantId))) throw new UsageError(`tenant ${tenantId} does not exist.`);
      const { analyticsExport } = await import('../shared/adapters/wiring/analytics.js');
      for (const { day, outcome } of await analyticsExport.exportDays(tenantId, { from, to, force: values.force === true }))
        console.log(`${day}\t${outcome}`);
      // The days late changes marked (a case moved, an answer corrected) that have ended by --to: written again.
      for (const day of await analyticsExport.rewriteDirty(tenantId, to)) console.log(`${day}\twritten again (late changes)`);
      // The tenant's daily run from now on (parking it again is the same timer).
      const { analyticsSchedule } = await import('../shared/adapters/wiring/analytics.js');
      const next = await analyticsSchedule.scheduleNext(tenantId);
      console.log(`${next.day}\tscheduled for ${next.dueAt.toISOString()}`);
      return;
    }
    case 'index-cases': {
      const tenant = integer(values.tenant, 'tenant');
      const byOwner = await indexCases(tenant);
      return console.log(`${byOwner} cases indexed by owner, ${await indexCaseNumbers(tenant)} by short number`);
    }
    case 'redrive': {
      if (file === 'asyncFailures') return console.log(await redriveAsync(local, values['dlq-url']));
      const queue = QUEUES[file as QueueId];
      if (!queue) throw new UsageError(`redrive needs a queue: ${[...Object.keys(QUEUES), 'asyncFailures'].join(' or ')}.`);
      const client = new SQSClient({});
      const dlqUrl = values['dlq-url'] ?? (await queueUrl(client, `${queue.name}-dlq`));
      const sourceUrl = values['source-url'] ?? (await queueUrl(client, queue.name));
      return console.log(await redrive(client, dlqUrl, sourceUrl));
    }
    default:
      throw new UsageError(`unknown command "${command}". Run: npm run admin -- help`);
  }
}

/**
 * A manager who signs in: the tenant user and the Cognito user. Locally the temporary password is made here and shown
 * (no e-mail leaves the machine); on AWS Cognito makes it and e-mails the invitation.
 */
async function createManager(local: boolean, tenantId: number, email: string, scope: UserScope): Promise<string> {
  let userPoolId = process.env[ENV.userPoolId];
  if (local) {
    userPoolId ??= (await setupUserPool(process.env.AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER!)).userPoolId;
  }
  if (!userPoolId) throw new UsageError(`set ${ENV.userPoolId} to the data stack's output UserPoolId.`);
  // Cognito's own policy: 12 characters or more, upper and lower case, a digit and a symbol.
  const temporaryPassword = local ? `Tmp-${randomBytes(9).toString('base64url')}-7a` : undefined;
  const putTenantUser = (id: number, name: string, given: UserScope) => tenantService.createUser(id, { name, scope: given });
  const { email: created, invited } = await inviteManager(
    { putTenantUser, directory: cognitoUserDirectory(userPoolId) },
    { tenantId, email, scope, temporaryPassword },
  );
  if (invited === 'exists') return `manager ${created}: scope updated (already in the user pool; no new invitation)`;
  return local
    ? `manager ${created} invited. Local invitation (no e-mail is sent): sign in at /app/ with the temporary password\n${temporaryPassword}\nand choose a password.`
    : `manager ${created} invited: Cognito e-mails the temporary password; they choose a password at first sign-in.`;
}

/**
 * The async-failure queue's records, invoked again. On AWS, through Lambda (InvocationType Event: a failure is
 * retried and recorded again, as the first time). Locally the functions live in `npm start`'s process, so the one
 * named runs here, as the local timer runs it (two retries, then a record), against the local stack's table and queues.
 */
async function redriveAsync(local: boolean, url: string | undefined): Promise<string> {
  if (!local) {
    if (!url) throw new UsageError('on AWS, give --dlq-url: the AsyncFailureQueueUrl output of the service stack.');
    const lambda = new LambdaClient({});
    return redriveAsyncFailures(new SQSClient({}), url, async (functionArn, payload) => {
      await lambda.send(new InvokeCommand({ FunctionName: functionArn, InvocationType: 'Event', Payload: JSON.stringify(payload) }));
    });
  }
  const client = new SQSClient({});
  for (const queue of Object.values(QUEUES)) process.env[queue.urlEnv] ??= await queueUrl(client, queue.name);
  const failures = url ?? (await queueUrl(client, ASYNC_FAILURES.name));
  const { loadHandler } = await import('./local/gateway.js');
  const { invokeAsync, functionNameOf } = await import('./local/async.js');
  return redriveAsyncFailures(client, failures, async (functionArn, payload) => {
    const id = functionNameOf(functionArn);
    const fn = [...scheduled, ...notified].find((candidate) => candidate.id === id);
    if (!fn) throw new UsageError(`${id} is not a function invoked asynchronously.`);
    await invokeAsync(id, await loadHandler(fn.handler), payload, { client, queueUrl: failures });
  });
}

try {
  await run(process.argv.slice(2));
} catch (error) {
  // Usage and tenant-file errors are written for people; others are SDK errors, whose message says enough.
  console.error(`admin: ${(error as Error).message}`);
  process.exit(1);
}
