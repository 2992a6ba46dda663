import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayRequestAuthorizerEventV2, Context } from 'aws-lambda';

/**
 * HTTP API (payload format 2.0) events as API Gateway builds them, for the local gateway and for tests that
 * invoke handlers directly.
 */
export interface HttpRequestShape {
  method: string;
  /** The route's path template, e.g. /public/store/{id}. */
  routePath: string;
  rawPath: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string | undefined;
  isBase64Encoded?: boolean;
  requestId?: string;
}

export function httpEvent(
  request: HttpRequestShape,
  authorizer?: unknown,
): APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda: unknown } } } {
  const now = new Date();
  const { cookie, ...headers } = Object.fromEntries(Object.entries(request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  // Payload format 2.0 hands the Cookie header as `cookies`, one `name=value` each, and not among the headers.
  const cookies = cookie
    ? cookie
        .split(';')
        .map((part) => part.trim())
        .filter(Boolean)
    : undefined;
  const query = request.query && Object.keys(request.query).length ? request.query : undefined;
  return {
    version: '2.0',
    routeKey: `${request.method} ${request.routePath}`,
    rawPath: request.rawPath,
    rawQueryString: query ? new URLSearchParams(query).toString() : '',
    ...(cookies ? { cookies } : {}),
    headers,
    queryStringParameters: query,
    pathParameters: request.pathParameters && Object.keys(request.pathParameters).length ? request.pathParameters : undefined,
    body: request.body,
    isBase64Encoded: request.isBase64Encoded ?? false,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: request.method,
        path: request.rawPath,
        protocol: 'HTTP/1.1',
        sourceIp: '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: request.requestId ?? randomUUID(),
      routeKey: `${request.method} ${request.routePath}`,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
      ...(authorizer === undefined ? {} : { authorizer: { lambda: authorizer } }),
    },
  };
}

export function authorizerEvent(event: APIGatewayProxyEventV2, identitySource: string[]): APIGatewayRequestAuthorizerEventV2 {
  return {
    version: '2.0',
    type: 'REQUEST',
    routeArn: `arn:aws:execute-api:local:000000000000:local/$default/${event.requestContext.http.method}${event.rawPath}`,
    identitySource,
    routeKey: event.routeKey,
    rawPath: event.rawPath,
    rawQueryString: event.rawQueryString,
    cookies: event.cookies ?? [],
    headers: event.headers,
    queryStringParameters: event.queryStringParameters ?? {},
    requestContext: event.requestContext,
    pathParameters: event.pathParameters ?? {},
    stageVariables: {},
  };
}

export function lambdaContext(functionName: string): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30_000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
