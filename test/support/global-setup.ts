// Before the service's modules load: Powertools reads its settings when its Logger and Metrics are built.
import './silent.js';
import '../../infra/local/quiet.js';
import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../infra/local/stack.js';

declare module 'vitest' {
  export interface ProvidedContext {
    stackEnv: Record<string, string>;
    publicUrl: string;
    chatbotUrl: string;
    sesUrl: string;
    outboxUrl: string;
    comprehendUrl: string;
  }
}

/** One DynamoDB Local, one SQS server and both gateways for the whole run, on free ports; stopped after. */
export default async function setup(project: TestProject) {
  const stack = await startLocalStack({
    port: 0,
    chatbotPort: 0,
    dynamoDbPort: 0,
    sqsPort: 0,
    sesPort: 0,
    outboxPort: 0,
    s3Port: 0,
    tableName: 'survey-service-test',
    authorizerCacheTtlSeconds: 0,
    seed: true,
    visibilityTimeoutSeconds: 1,
    // An erasure is done only after its second pass: 3 seconds here, not the two minutes of a deployment (tests
    // that wait for an erasure read it as ERASURE_RECHECK_SECONDS).
    erasureRecheckSeconds: 3,
  });
  project.provide('stackEnv', stack.env);
  project.provide('publicUrl', stack.publicUrl);
  project.provide('chatbotUrl', stack.chatbotUrl);
  project.provide('sesUrl', stack.sesUrl);
  project.provide('outboxUrl', stack.outboxUrl);
  project.provide('comprehendUrl', stack.comprehendUrl);
  return () => stack.stop();
}
