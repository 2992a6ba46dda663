import { Stack } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { SurveyDataStack } from './stacks/data.js';
import type { SurveyServiceProps } from './stacks/props.js';
import { SurveyServiceStack } from './stacks/service.js';

export { customDomainFromContext, DEFAULT_THROTTLE, type CustomDomain, type Throttle } from './constructs/http-api.js';
export type { SurveyServiceProps } from './stacks/props.js';

/**
 * The deployment, split by lifetime and concern so that each stack stays far under CloudFormation's 500 resources
 * (test/infra/stack.test.ts pins each below 200):
 *
 * - `<name>-Data`: the table and the three secrets, retained: what outlives every deployment. Its exports (the
 *   table's name and ARN, the secrets' ARNs) are the only cross-stack exports: nothing replaces this stack.
 * - `<name>`: the service, whose nested stacks receive what they share as nested-stack parameters (never exports,
 *   which would block replacing the stack that exports them): `Messaging` (queues, the SES configuration set and its
 *   topic, the async-failure queue, the alarm topic), `PublicApi` and `ChatbotApi` (each its HttpApi, stage,
 *   authorizer and reference, and one nested stack per route group adding its operations' functions and routes to
 *   that one HttpApi), and `Workers` (queue consumers, scheduled functions, the SES events function).
 *
 * One file per stack in infra/stacks/, each assembled from the parts of infra/constructs/: `Storage`,
 * `ServiceQueues`, `EmailEvents`, `ServiceHttpApi`, and the `FunctionBinding` every function is made through. A part
 * builds its resources into the scope it is given (its stack), not under a construct of its own: a resource's
 * construct path makes its logical ID, and a new logical ID is a new resource to CloudFormation (a replaced table
 * loses its data). The path also names what CDK derives from it (`Names.nodeUniqueId`: the SQS event source
 * mappings, the SNS subscription's and the HTTP integrations' and authorizers' invoke permissions), which a
 * logical-ID override would not cover. So the templates are those of the stack before it was split into parts
 * (test/infra/stack.test.ts pins the ids that hold data).
 *
 * `npx cdk deploy --all` deploys both, the data stack first.
 */
export function surveyService(scope: Construct, name: string, props: SurveyServiceProps): SurveyService {
  const { env } = props;
  const data = new SurveyDataStack(scope, `${name}-Data`, {
    ...(env ? { env } : {}),
    description: 'Satisfaction survey service: the table and the secrets (retained)',
  });
  const service = new SurveyServiceStack(scope, name, { ...props, data });
  service.addStackDependency(data);
  return { data, service, stacks: [data, service, ...service.node.findAll().filter((c): c is Stack => c !== service && Stack.isStack(c))] };
}

export interface SurveyService {
  data: SurveyDataStack;
  service: SurveyServiceStack;
  /** Every stack of the deployment: the two top-level ones, then the service's nested stacks. */
  stacks: Stack[];
}
