import { App } from 'aws-cdk-lib';
import { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { writeReference } from './reference.js';
import { customDomainFromContext, surveyService } from './stack.js';

/** `npx cdk deploy --all`. Settings come from CDK context (cdk.json, or `-c name=value`). */
const app = new App();
const setting = (name: string) => app.node.tryGetContext(name) as string | number | undefined;

/** A comma-separated list setting, or undefined when unset. */
const list = (name: string) =>
  setting(name)
    ? String(setting(name))
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : undefined;

const stage = String(setting('stage') ?? 'prod');
const logRetentionDays = Number(setting('logRetentionDays') ?? 30);
const retention = Object.values(RetentionDays).find((days) => days === logRetentionDays);
if (retention === undefined) throw new Error(`logRetentionDays ${logRetentionDays} is not a CloudWatch retention period.`);

// Reserved concurrency throttled the SQS event source (each throttle a receive, healthy messages to the DLQ).
if (setting('consumerReservedConcurrency') !== undefined)
  throw new Error(
    "The context setting consumerReservedConcurrency is now consumerMaxConcurrency (the queue event source's maximum concurrency).",
  );

// The OpenAPI documents and /docs, written now from the code being deployed; each API's reference function bundles its own.
const references = { public: await writeReference('public'), chatbot: await writeReference('chatbot') };

// Two stacks, SurveyService-<stage>-Data (table and secrets, retained) and SurveyService-<stage> (the service and its
// nested stacks): `npx cdk deploy --all`.
surveyService(app, `SurveyService-${stage}`, {
  stage,
  logRetention: retention as RetentionDays,
  authorizerCacheTtlSeconds: Number(setting('authorizerCacheTtlSeconds') ?? 300),
  alarmEmail: setting('alarmEmail') ? String(setting('alarmEmail')) : undefined,
  consumerMaxConcurrency: setting('consumerMaxConcurrency') ? Number(setting('consumerMaxConcurrency')) : undefined,
  throttle: {
    ...(setting('throttleRate') !== undefined ? { rate: Number(setting('throttleRate')) } : {}),
    ...(setting('throttleBurst') !== undefined ? { burst: Number(setting('throttleBurst')) } : {}),
    ...(setting('anonymousThrottleRate') !== undefined ? { anonymousRate: Number(setting('anonymousThrottleRate')) } : {}),
    ...(setting('anonymousThrottleBurst') !== undefined ? { anonymousBurst: Number(setting('anonymousThrottleBurst')) } : {}),
    // `-c routeRates=getSurveyPage=3000,postSurveyPage=3000`: requests a second of a route, by operation id.
    routes: Object.fromEntries((list('routeRates') ?? []).map((pair) => [pair.split('=')[0]!, Number(pair.split('=')[1])])),
  },
  corsOrigins: { public: list('corsOrigins'), chatbot: list('chatbotCorsOrigins') },
  references,
  customDomain: customDomainFromContext(setting),
  senders: {
    ses: list('sesIdentityArns'),
    sms: list('smsOriginationArns'),
    whatsapp: list('whatsappPhoneNumberArns'),
  },
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
