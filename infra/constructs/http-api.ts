import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AccessLogField, AccessLogFormat } from 'aws-cdk-lib/aws-apigateway';
import {
  ApiMapping,
  type CfnStage,
  CorsHttpMethod,
  DomainName,
  SecurityPolicy,
  HttpApi,
  HttpMethod,
  HttpRoute,
  HttpRouteKey,
  HttpStage,
  type IHttpRouteAuthorizer,
  LogGroupLogDestination,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaAuthorizer, HttpLambdaResponseType } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { Certificate } from 'aws-cdk-lib/aws-certificatemanager';
import type { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { MathExpression } from 'aws-cdk-lib/aws-cloudwatch';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { API_KEY_HEADER, USER_TOKEN_HEADER } from '../../shared/headers.js';
import { capitalise } from '../../shared/text.js';
import { authorizerId } from '../grants.js';
import {
  authorizers,
  REFERENCE_OPERATION,
  referencePaths,
  routes,
  sessionAuthorizer,
  workspaceRoutes,
  type ApiName,
  type Route,
} from '../routes.js';
import { acknowledgeAnonymousRoute } from './acknowledgments.js';
import type { Alarms } from './alarms.js';
import type { FunctionBinding } from './function-binding.js';

export interface Throttle {
  rate: number;
  burst: number;
  anonymousRate: number;
  anonymousBurst: number;
  /** Requests a second of the routes sized apart, by operation id (`getReference`: /docs, /openapi.json, /assets). */
  routes: Record<string, number>;
}

/**
 * The limits are per route and shared by every tenant (HTTP APIs have no per-key quota). Most routes get the stage's
 * default, and the routes anyone may call a tighter one; the routes a large tenant's peak or a mass send goes through
 * are sized for it: three tenants of 10 million sales a day at their peak hour together, and a send of 100,000 e-mails
 * (the arithmetic: docs/operations.md#throttling).
 */
export const DEFAULT_THROTTLE: Throttle = {
  rate: 500,
  burst: 1000,
  anonymousRate: 20,
  anonymousBurst: 40,
  routes: {
    postV2Transaction: 4000,
    postTransaction: 4000,
    getSurveyPage: 1500,
    postSurveyPage: 1500,
    getBrandLogo: 1500,
    getSurvey: 1500,
    postSurvey: 1500,
    getUnsubscribePage: 100,
    postUnsubscribe: 100,
    getSignIn: 50,
    postSignIn: 50,
    getSessionRefresh: 50,
    getReference: 100,
  },
};

/** API Gateway's burst quota of an account and region (a route's burst above it would never be reached). */
const ACCOUNT_BURST = 5000;

export interface ServiceHttpApiProps {
  stage: string;
  logRetention: RetentionDays;
  authorizerCacheTtlSeconds: number;
  throttle?: Partial<Throttle> | undefined;
  /** The browser origins the API admits across origins (CORS); none by default. */
  corsOrigins?: readonly string[] | undefined;
  /** The public API's own domain (SurveyServiceProps.customDomain). */
  customDomain?: CustomDomain | undefined;
}

export interface CustomDomain {
  domainName: string;
  certificateArn: string;
}

/**
 * The custom domain from CDK context (`-c customDomain=pesquisa.example.com -c certificateArn=arn:aws:acm:...`): both or
 * neither, each checked, so that a typo fails the synth rather than the deployment.
 */
export function customDomainFromContext(setting: (name: string) => unknown): CustomDomain | undefined {
  const [domainName, certificateArn] = [setting('customDomain'), setting('certificateArn')].map((value) =>
    value === undefined || value === '' ? undefined : String(value),
  );
  if (!domainName && !certificateArn) return undefined;
  if (!domainName || !certificateArn)
    throw new Error('Give both customDomain and certificateArn (the ACM certificate of that domain), or neither.');
  if (!/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i.test(domainName))
    throw new Error(`customDomain ${JSON.stringify(domainName)} is not a domain name such as pesquisa.example.com.`);
  if (!/^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[\w-]+$/.test(certificateArn))
    throw new Error(`certificateArn ${JSON.stringify(certificateArn)} is not an ACM certificate ARN.`);
  return { domainName: domainName.toLowerCase(), certificateArn };
}

/**
 * One HTTP API, built into `scope` (its nested stack; see infra/stack.ts on why a part keeps its stack's scope):
 * the HttpApi, its stage with throttling and JSON access logs, its key authorizer, its 5xx alarm; routes are added
 * to it with `addRoute`, from whichever stack holds their functions.
 */
export class ServiceHttpApi {
  readonly api: HttpApi;
  readonly stage: HttpStage;
  readonly authorizer: IHttpRouteAuthorizer;
  /** The workspace's pages' authorizer (the session cookie), on the public API only. */
  readonly sessionAuthorizer?: IHttpRouteAuthorizer;
  readonly url: string;
  /** Where survey links open: the custom domain when the public API has one, else its stage's URL. */
  readonly linkBaseUrl: string;
  /** The public API's custom domain, when the deployment gives one. */
  readonly domainName?: DomainName;

  constructor(scope: Construct, name: ApiName, props: ServiceHttpApiProps, binding: FunctionBinding, alarms: Alarms) {
    const origins = props.corsOrigins ?? [];
    this.api = new HttpApi(scope, `${capitalise(name)}Api`, {
      apiName: `survey-service-${name}-${props.stage}`,
      createDefaultStage: false,
      ...(origins.length
        ? {
            corsPreflight: {
              allowOrigins: [...origins],
              allowMethods: [CorsHttpMethod.GET, CorsHttpMethod.POST, CorsHttpMethod.PUT, CorsHttpMethod.PATCH, CorsHttpMethod.DELETE],
              allowHeaders: ['content-type', API_KEY_HEADER, USER_TOKEN_HEADER],
              exposeHeaders: ['x-request-id', 'retry-after'],
              maxAge: Duration.days(1),
            },
          }
        : {}),
    });
    this.stage = this.addStage(scope, name, props);
    this.url = this.stage.url;
    this.linkBaseUrl = this.stage.url;
    if (name === 'public' && props.customDomain) {
      // The stage at the domain's root: https://<domain>/s/<token>. The certificate is the deployer's (ACM, this region).
      const { domainName, certificateArn } = props.customDomain;
      this.domainName = new DomainName(scope, 'PublicDomainName', {
        domainName,
        certificate: Certificate.fromCertificateArn(scope, 'PublicDomainCertificate', certificateArn),
        securityPolicy: SecurityPolicy.TLS_1_2,
      });
      new ApiMapping(scope, 'PublicApiMapping', { api: this.api, domainName: this.domainName, stage: this.stage });
      this.linkBaseUrl = `https://${domainName}`;
    }
    const authorizerFunction = binding.function(scope, authorizerId(name), {
      handler: authorizers[name].handler,
      description: `API key authorizer of the ${name} API`,
      memorySize: 256,
    });
    // Bound with the API's first keyed route, in the API's scope, whichever route group adds it.
    this.authorizer = new HttpLambdaAuthorizer(`${capitalise(name)}KeyAuthorizer`, authorizerFunction, {
      responseTypes: [HttpLambdaResponseType.SIMPLE],
      identitySource: [`$request.header.${API_KEY_HEADER}`],
      resultsCacheTtl: Duration.seconds(props.authorizerCacheTtlSeconds),
    });
    if (name === 'public') {
      const sessionFunction = binding.function(scope, sessionAuthorizer.id, {
        handler: sessionAuthorizer.handler,
        description: "The workspace's authorizer: verifies the session cookie's Cognito ID token",
        memorySize: 256,
      });
      // No identity source and no cache: a request without a session must reach the authorizer, and its page then
      // sends it to sign in.
      this.sessionAuthorizer = new HttpLambdaAuthorizer('SessionAuthorizer', sessionFunction, {
        responseTypes: [HttpLambdaResponseType.SIMPLE],
        identitySource: [],
        resultsCacheTtl: Duration.seconds(0),
      });
    }
    alarms.add(
      `${capitalise(name)}Api5xxRate`,
      `More than 1% of ${name} API requests answered 5xx`,
      new MathExpression({
        expression: 'IF(requests > 0, 100 * errors / requests, 0)',
        usingMetrics: {
          errors: this.api.metricServerError({ period: Duration.minutes(5) }),
          requests: this.api.metricCount({ period: Duration.minutes(5) }),
        },
        period: Duration.minutes(5),
      }),
      1,
      scope,
    );
  }

  /** The stage: the API's throttle, a tighter one on the routes anyone may call, JSON access logs. */
  private addStage(scope: Construct, name: ApiName, props: ServiceHttpApiProps): HttpStage {
    const throttle = { ...DEFAULT_THROTTLE, ...props.throttle, routes: { ...DEFAULT_THROTTLE.routes, ...props.throttle?.routes } };
    const operations = new Set([...routes, ...workspaceRoutes].map((route) => route.operationId).concat(REFERENCE_OPERATION));
    for (const [operationId, rate] of Object.entries(throttle.routes))
      if (!operations.has(operationId) || !(rate > 0))
        throw new Error(`The route rate ${operationId}=${rate} names no operation or is not a positive number of requests a second.`);
    // JSON access logs: who was answered what, how fast, and why an integration or the authorizer failed. The
    // route key, never the path: a survey page's path holds its link's token.
    const accessLogs = new LogGroup(scope, `${capitalise(name)}AccessLogs`, {
      retention: props.logRetention,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const stage = new HttpStage(scope, `${capitalise(name)}Stage`, {
      httpApi: this.api,
      stageName: props.stage,
      autoDeploy: true,
      throttle: { rateLimit: throttle.rate, burstLimit: throttle.burst },
      accessLogSettings: {
        destination: new LogGroupLogDestination(accessLogs),
        format: AccessLogFormat.custom(
          JSON.stringify({
            requestId: AccessLogField.contextRequestId(),
            time: AccessLogField.contextRequestTime(),
            route: '$context.routeKey',
            status: AccessLogField.contextStatus(),
            responseLength: AccessLogField.contextResponseLength(),
            latency: AccessLogField.contextResponseLatency(),
            integrationLatency: AccessLogField.contextIntegrationLatency(),
            integrationStatus: '$context.integrationStatus',
            integrationError: AccessLogField.contextIntegrationErrorMessage(),
            authorizerError: AccessLogField.contextAuthorizerError(),
            errorMessage: '$context.error.message',
          }),
        ),
      },
    });
    // A route sized apart gets its rate and a burst of twice it; the other routes anyone may call, the tighter limit (a
    // JSON map: CloudFormation's own names).
    const limitOf = (operationId: string, anonymous: boolean) => {
      const rate = throttle.routes[operationId];
      if (rate !== undefined) return { ThrottlingRateLimit: rate, ThrottlingBurstLimit: Math.min(2 * rate, ACCOUNT_BURST) };
      return anonymous ? { ThrottlingRateLimit: throttle.anonymousRate, ThrottlingBurstLimit: throttle.anonymousBurst } : undefined;
    };
    const settings = [
      ...[...routes, ...workspaceRoutes]
        .filter((route) => route.api === name)
        .flatMap((route) => route.paths.map((path) => [`${route.method} ${path}`, limitOf(route.operationId, route.anonymous === true)])),
      ...referencePaths(name).map((path) => [`GET ${path}`, limitOf(REFERENCE_OPERATION, true)]),
    ].filter(([, limit]) => limit !== undefined);
    (stage.node.defaultChild as CfnStage).routeSettings = Object.fromEntries(settings);
    return stage;
  }

  /** Adds a route to this API, in `scope` (the API's stack or a route group's). */
  addRoute(
    scope: Construct,
    route: {
      path: string;
      method: Route['method'];
      integration: HttpLambdaIntegration;
      anonymous?: boolean | undefined;
      session?: boolean | undefined;
    },
  ): HttpRoute {
    if (route.session && !this.sessionAuthorizer) throw new Error(`${route.path}: the workspace is on the public API only.`);
    const added = new HttpRoute(scope, `${route.method}${route.path}`, {
      httpApi: this.api,
      routeKey: HttpRouteKey.with(route.path, HttpMethod[route.method]),
      integration: route.integration,
      ...(route.anonymous ? {} : { authorizer: route.session ? this.sessionAuthorizer! : this.authorizer }),
    });
    if (route.anonymous) {
      // The stage's settings for this route need the route to exist first.
      this.stage.node.addDependency(added);
      acknowledgeAnonymousRoute(added);
    }
    return added;
  }
}
