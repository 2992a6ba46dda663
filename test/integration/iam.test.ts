import { getSecret } from '@aws-lambda-powertools/parameters/secrets';
import { ENV, requireEnv, secretArnVariable } from '../../shared/config.js';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { handler as createStore } from '../../functions/http/create-store.js';
import { handler as postV2Transaction } from '../../functions/http/post-v2-transaction.js';
import { httpEvent } from '../../infra/local/events.js';
import { runAs } from '../../infra/local/iam.js';
import { invoke } from '../../infra/local/invoke.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { senders } from '../../shared/adapters/senders.js';
import { comprehendAnalyser } from '../../shared/adapters/comprehend.js';
import { BatchDetectKeyPhrasesCommand, ComprehendClient, DetectDominantLanguageCommand } from '@aws-sdk/client-comprehend';
import { sendMessage } from '../../shared/adapters/sqs.js';
import { cognitoIdentityProvider, cognitoUserDirectory } from '../../shared/adapters/cognito.js';
import { inProcess } from '../support/api.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/**
 * What AWS answers a call outside the caller's role, as the SDK surfaces it (SQS's JSON protocol also sends its
 * query-era code, AccessDenied, which the SDK takes as the error's name).
 */
const denied = (action: string, name = 'AccessDeniedException') =>
  expect.objectContaining({
    name,
    message: expect.stringContaining(`is not authorized to perform: ${action} on resource:`),
  });

let tenant: TestTenant;
beforeAll(async () => {
  tenant = await newTenant();
});

const probeKey = (name: string) => ({ pk: `T#${tenant.tenantId}#IAM-PROBE`, sk: name });
const read = async (name: string) => (await db().client.send(new GetCommand({ TableName: db().tableName, Key: probeKey(name) }))).Item;

describe('grants enforced locally as IAM enforces them on AWS', () => {
  it('refuses a write from a function whose role only reads, as DynamoDB refuses it, and writes nothing', async () => {
    const write = runAs('getStore', () =>
      db().client.send(new PutCommand({ TableName: db().tableName, Item: { ...probeKey('put'), v: 1 } })),
    );

    const error = await write.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toEqual(denied('dynamodb:PutItem'));
    expect((error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(400);
    expect(String((error as Error).message)).toContain(`table/${db().tableName}`);
    expect(await read('put')).toBeUndefined();
  });

  it('answers a generic 500 when a real handler runs with a read-only role, as the access-logging reads did on AWS', async () => {
    const event = httpEvent(
      {
        method: 'POST',
        routePath: '/public/store',
        rawPath: '/public/store',
        headers: { 'content-type': 'application/json' },
        body: '{"trade_name":"Denied"}',
        requestId: 'req-iam',
      },
      { authenticated: true, tenantId: tenant.tenantId, scope: 'public', checkedFor: 'req-iam' },
    );

    const asItself = await invoke('createStore', createStore, structuredClone(event));
    const asReader = await invoke('getStore', createStore, structuredClone(event));

    expect(asItself.statusCode).toBe(201);
    expect(asReader.statusCode).toBe(500);
    expect(asReader.body).not.toContain('AccessDenied');
  });

  it('authorises each item of a transaction as the single call it is: a Delete needs DeleteItem', async () => {
    const transact = (functionId: string) =>
      runAs(functionId, () =>
        db().client.send(
          new TransactWriteCommand({
            TransactItems: [
              { Put: { TableName: db().tableName, Item: { ...probeKey(`tx-${functionId}`), v: 1 } } },
              { Delete: { TableName: db().tableName, Key: probeKey('nothing') } },
            ],
          }),
        ),
      );

    await expect(transact('createStore')).rejects.toEqual(denied('dynamodb:DeleteItem'));
    await expect(transact('updateStore')).resolves.toBeDefined();
    expect(await read('tx-createStore')).toBeUndefined();
    expect(await read('tx-updateStore')).toMatchObject({ v: 1 });
  });

  it('refuses a send to a queue the role does not name, and an e-mail from a function that sends none', async () => {
    await expect(runAs('getStore', () => sendMessage('events', { probe: true }))).rejects.toEqual(
      denied('sqs:SendMessage', 'AccessDenied'),
    );
    await expect(runAs('postV2Transaction', () => sendMessage('events', { probe: true }))).rejects.toEqual(
      denied('sqs:SendMessage', 'AccessDenied'),
    );
    const email = runAs('eventWebhooks', () =>
      senders.email({ from: 'a@demo.local', to: 'b@demo.local', subject: 's', html: 'h', text: 't', headers: [], tags: {} }),
    );
    const error = await email.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toEqual(denied('ses:SendEmail'));
    expect((error as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(403);
  });

  it('reads a customer, which records its access-log entry, within the role it has (AccessDenied on AWS when it only read)', async () => {
    const api = inProcess();
    const created = await api({
      method: 'POST',
      path: '/public/customer',
      key: tenant.key,
      body: { name: 'Ana', email: 'ana@example.com' },
    });
    const got = await api({ path: `/public/customer/${created.body.id}`, key: tenant.key });
    expect(got.status).toBe(200);
  });

  it('refuses an SMS or a WhatsApp message from a function that sends none, as those services refuse it', async () => {
    // The SMS adapter turns the refusal into a delivery refused for good, named by the service's error.
    await expect(
      runAs('getStore', () => senders.sms({ to: '+5511900000000', text: 't', originationIdentity: '+5511900000001' })),
    ).rejects.toThrow(/AccessDeniedException/);
    await expect(
      runAs('getStore', () =>
        senders.whatsapp({ to: '+5511900000000', phoneNumberId: 'pn', template: 't', language: 'pt_BR', parameters: [] }),
      ),
    ).rejects.toThrow(/is not authorized to perform: social-messaging:SendWhatsAppMessage/);
    // The dispatcher, whose role sends both, is let through to the provider (the local outbox answers).
    await expect(
      runAs('surveyDispatcher', () => senders.sms({ to: '+5511900000000', text: 't', originationIdentity: '+5511900000001' })),
    ).resolves.toMatchObject({ messageId: expect.any(String) });
  });

  it('refuses Comprehend to a function whose role does not name it, and lets the comment analyser through to sentiment alone', async () => {
    await expect(runAs('postSurvey', () => comprehendAnalyser.sentiment('A fila estava enorme', 'pt'))).rejects.toThrow(
      /is not authorized to perform: comprehend:BatchDetectSentiment/,
    );
    await expect(runAs('commentAnalyser', () => comprehendAnalyser.sentiment('El personal fue muy amable', 'es'))).resolves.toBe(
      'positive',
    );
    // The language and key phrases are the service's own: the analyser's role no longer names their actions.
    const comprehend = new ComprehendClient({});
    await expect(
      runAs('commentAnalyser', () => comprehend.send(new DetectDominantLanguageCommand({ Text: 'A fila estava enorme' }))),
    ).rejects.toThrow(/is not authorized to perform: comprehend:DetectDominantLanguage/);
    await expect(
      runAs('commentAnalyser', () =>
        comprehend.send(new BatchDetectKeyPhrasesCommand({ TextList: ['A fila estava enorme'], LanguageCode: 'pt' })),
      ),
    ).rejects.toThrow(/is not authorized to perform: comprehend:BatchDetectKeyPhrases/);
  });

  it('lets a function read only the secrets its role names, from Secrets Manager', async () => {
    const arn = process.env[secretArnVariable(ENV.surveySecret)]!;
    const read = (functionId: string) => runAs(functionId, () => getSecret(arn, { forceFetch: true }));

    // Powertools wraps the service's error in its own, keeping the message.
    await expect(read('getStore')).rejects.toThrow(/is not authorized to perform: secretsmanager:GetSecretValue on resource/);
    await expect(read('getSurveyPage')).resolves.toBe(process.env[ENV.surveySecret]);
  });

  it('takes a sale whose key the authorizer could not check (the table was out): the function checks it with its own read', async () => {
    const event = httpEvent(
      {
        method: 'POST',
        routePath: '/v2/transactions',
        rawPath: '/v2/transactions',
        headers: { 'content-type': 'application/json', 'x-service-api-key': tenant.key },
        body: JSON.stringify({
          store: { id: 1 },
          employee: { id: 1 },
          customer: { externalId: 'recheck-1', name: 'Recheck' },
          transaction: { journeySlug: 'loja' },
        }),
      },
      { authenticated: false, recheck: 'public' },
    );
    const answer = await invoke('postV2Transaction', postV2Transaction, event);
    expect(answer.statusCode).toBe(201);
  });

  it("lets a sign-in function call Cognito's public sign-in, unsigned as on AWS, and refuses it the user pool's admin actions", async () => {
    const email = `iam-${tenant.tenantId}@test.local`;
    const directory = cognitoUserDirectory(process.env[ENV.userPoolId]!);
    const created = runAs('postSignIn', () =>
      directory.invite({ email, tenantId: tenant.tenantId, temporaryPassword: 'Temp-iam-pass-1!' }),
    );

    const error = await created.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toEqual(denied('cognito-idp:AdminCreateUser'));
    expect(String((error as Error).message)).toContain(`userpool/${process.env[ENV.userPoolId]}`);
    // Nothing was created: the operator may create the user, and then the function signs in with it.
    await expect(directory.invite({ email, tenantId: tenant.tenantId, temporaryPassword: 'Temp-iam-pass-1!' })).resolves.toBe('created');
    const idp = cognitoIdentityProvider(() => process.env[ENV.userPoolClientId]!);
    await expect(runAs('postSignIn', () => idp.signIn(email, 'Temp-iam-pass-1!'))).resolves.toMatchObject({ kind: 'new-password' });
    await expect(runAs('postSignIn', () => idp.signIn(`nobody-${email}`, 'Temp-iam-pass-1!'))).resolves.toEqual({ kind: 'refused' });
  });

  it("refuses S3 calls a role does not grant with S3's own 403 AccessDenied XML, and lets the operator's calls through", async () => {
    const bucket = requireEnv(ENV.logoBucket);
    const s3 = new S3Client({ forcePathStyle: true });
    const Key = `logos/iam-probe-${tenant.tenantId}.png`;
    // The operator (outside any function) writes; nothing of the service is granted the bucket yet.
    await s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'probe' }));

    // What the wire carries back, as the SDK's own deserializer sees it.
    let raw: { status: number; type: string; body: string } | undefined;
    s3.middlewareStack.add(
      (next) => async (args) => {
        const out = await next(args);
        const response = out.response as { statusCode: number; headers: Record<string, string> };
        raw = { status: response.statusCode, type: response.headers['content-type']!, body: '' };
        return out;
      },
      { step: 'deserialize', name: 'rawProbe' },
    );
    const read = await runAs('getStore', () => s3.send(new GetObjectCommand({ Bucket: bucket, Key }))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(read).toEqual(denied('s3:GetObject', 'AccessDenied'));
    expect((read as Error).message).toContain(`on resource: "arn:aws:s3:::${bucket}/${Key}"`);
    expect((read as { $metadata: { httpStatusCode: number } }).$metadata.httpStatusCode).toBe(403);
    expect(raw).toMatchObject({ status: 403, type: 'application/xml' });

    const write = await runAs('getStore', () => s3.send(new PutObjectCommand({ Bucket: bucket, Key, Body: 'overwritten' }))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(write).toEqual(denied('s3:PutObject', 'AccessDenied'));
    const kept = await s3.send(new GetObjectCommand({ Bucket: bucket, Key }));
    expect(await kept.Body!.transformToString()).toBe('probe');
  });

  it('names an unknown function at once instead of denying everything it does', () => {
    expect(() => runAs('noSuchFunction', async () => undefined)).toThrow(/noSuchFunction is not a function of this service/);
  });
});
