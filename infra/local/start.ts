import './quiet.js';
import { StartupError, onShutdown } from './services.js';
import { startLocalStack } from './stack.js';
import { prepareReference } from './gateway.js';
import { API_KEY_HEADER } from '../../shared/headers.js';
import { DEMO_MANAGERS } from './demo.js';
import { LOCAL_TABLE_NAME, localPort, type LocalPortName } from './ports.js';

/** `npm start`: the whole service on this machine, no AWS account and no Docker. */

const env = process.env;
const port = (name: LocalPortName) => {
  try {
    return localPort(name, env);
  } catch (error) {
    throw new StartupError((error as Error).message);
  }
};

// From the first moment: a signal while the stack starts still ends the process through 'exit', which stops its emulators.
let stop = async () => {};
onShutdown(() => stop());

try {
  const stack = await startLocalStack({
    port: port('PORT'),
    host: env.HOST ?? '127.0.0.1',
    chatbotPort: port('CHATBOT_PORT'),
    dynamoDbPort: port('DYNAMODB_PORT'),
    sqsPort: port('SQS_PORT'),
    sesPort: port('SES_PORT'),
    outboxPort: port('OUTBOX_PORT'),
    comprehendPort: port('COMPREHEND_PORT'),
    cognitoPort: port('COGNITO_PORT'),
    s3Port: port('S3_PORT'),
    surveyBaseUrl: env.SURVEY_BASE_URL ?? `http://localhost:${port('PORT')}`,
    dataDir: env.DATA_DIR,
    tableName: env.TABLE_NAME ?? LOCAL_TABLE_NAME,
    authorizerCacheTtlSeconds: Number(env.AUTHORIZER_CACHE_TTL ?? 0),
    seed: true,
    visibilityTimeoutSeconds: Number(env.LOCAL_VISIBILITY_TIMEOUT ?? 30),
  });
  stop = stack.stop;
  // The API reference's files, written now rather than on the first request for /docs (a deployment builds them).
  for (const api of ['public', 'chatbot'] as const)
    prepareReference(api).catch((error: unknown) => console.error(`The ${api} API reference could not be written: ${String(error)}`));
  const key = env.LOCAL_API_KEY ?? 'local-dev-api-key';
  console.log(`
Satisfaction survey service, running locally (${env.DATA_DIR ? `data kept in ${env.DATA_DIR}` : 'data in memory'})
  public API   ${stack.publicUrl}    (header ${API_KEY_HEADER})
  chatbot API  ${stack.chatbotUrl}    (its own key)
  DynamoDB     ${stack.dynamoDbEndpoint}  table ${stack.tableName}
  SQS          ${stack.sqsEndpoint}
  mailbox      ${stack.sesUrl}    (every e-mail sent; JSON at /store)
  outbox       ${stack.outboxUrl}    (SMS, WhatsApp and chatbot webhooks; JSON at /messages)
  Comprehend   ${stack.comprehendUrl}    (a small local model; what it received at /requests)
  Cognito      ${stack.cognito.endpoint}  (cognito-local; pool ${stack.cognito.userPoolId})
  S3           ${stack.s3Endpoint}    (the tenants' logos)

Demo tenant "demo" (id 1):   public key ${key}
                             chatbot key ${env.LOCAL_CHATBOT_API_KEY ?? 'local-dev-chatbot-key'}
                             chatbot hand-off signing secret ${await stack.chatbotSigningSecret(1)} (webhook-signature)
                             admin key ${env.LOCAL_ADMIN_API_KEY ?? 'local-dev-admin-key'} (GET/PUT /public/admin/config)
                             user token ${env.LOCAL_USER_TOKEN ?? 'local-dev-user-token'} (all stores), ${env.LOCAL_LIMITED_USER_TOKEN ?? 'local-dev-limited-token'} (store 1, group 1)
                             workspace ${stack.publicUrl}/app/ (e-mail / password): ${DEMO_MANAGERS.map((m) => `${m.email} / ${m.password}`).join(', ')}
Demo tenant "demo-2" (id 2): public key ${env.LOCAL_API_KEY_2 ?? 'local-dev-api-key-2'}

Try:  curl -s ${stack.publicUrl}/health
      curl -s -H '${API_KEY_HEADER}: ${key}' ${stack.publicUrl}/public/store
Admin: npm run admin -- help      (talks to this DynamoDB Local by default)
Ctrl-C stops everything.
`);
} catch (error) {
  if (error instanceof StartupError) {
    console.error(`npm start: ${error.message}`);
    process.exit(1);
  }
  throw error;
}
