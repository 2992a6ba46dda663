import { RETRY_AFTER_SECONDS } from './problem.js';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { isUnavailable } from '../adapters/unavailable.js';
import { logger } from '../logger.js';
import { flushMetrics } from '../metrics.js';
import type { Page } from '../surveys/answer-page.js';
import { messagePage, PAGE_HEADERS } from '../surveys/page-html.js';
import { localeOfRequest, translator } from '../i18n/messages.js';
import type { Locale } from '../locale.js';
import type { ResponseDoc } from './contract.js';

/** A form post is small: a score, a few classes and a comment of 1,000 characters. */
export const MAX_FORM_BYTES = 16 * 1024;

export interface PageInput {
  /** The link's token, from the path. Never logged: it is the credential. */
  token: string;
  query: Record<string, string | undefined>;
  /** The posted form (application/x-www-form-urlencoded), for POST routes. */
  form: URLSearchParams;
  /** The language the browser asks for (Accept-Language), for pages with no survey behind them. */
  locale: Locale;
  /** The browser's Accept-Language as sent: an entry's page chooses among them with its tenant's language as fallback. */
  languages: string | undefined;
  /** The request's cookies (`name=value` each; never logged) and source address: a QR page's bounds. */
  cookies: readonly string[];
  address: string;
}

/** What a page route documents: it needs no API key and answers HTML. */
export interface PageContract {
  anonymous: true;
  page: true;
  /** The form fields a POST takes, for the OpenAPI document. */
  form?: Record<string, string>;
  responses: Record<number, ResponseDoc>;
}

/** A page of the wrapper's own, in the browser's language: the request failed before any survey was read. */
const failure = (status: number, event: APIGatewayProxyEventV2, what: 'tooLong' | 'unavailable' | 'failed'): Page => {
  const locale = localeOfRequest(event.headers?.['accept-language']);
  const t = translator(locale);
  return { status, ...messagePage({ locale }, { title: t(`${what}.title`), text: t(`${what}.text`) }) };
};

const html = (page: Page, requestId: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: page.status,
  headers: {
    ...PAGE_HEADERS,
    'content-security-policy': page.policy,
    'x-request-id': requestId,
    ...(page.location ? { location: page.location } : {}),
    ...(page.retryAfter ? { 'retry-after': String(page.retryAfter) } : {}),
  },
  ...(page.cookies?.length ? { cookies: page.cookies } : {}),
  body: page.html,
});

/**
 * The wrapper of the survey pages: HTML for every answer (never JSON), the security headers on each, a bounded
 * form body, and an unexpected failure as a generic page that is logged without the token.
 */
export function pageHandler(run: (input: PageInput) => Promise<Page>) {
  const core = async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = event.requestContext.requestId;
    const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
    if (bytes.length > MAX_FORM_BYTES) return html(failure(413, event, 'tooLong'), requestId);
    const page = await run({
      token: event.pathParameters?.token ?? '',
      query: event.queryStringParameters ?? {},
      form: new URLSearchParams(bytes.toString('utf8')),
      locale: localeOfRequest(event.headers?.['accept-language']),
      languages: event.headers?.['accept-language'],
      cookies: event.cookies ?? [],
      address: event.requestContext.http.sourceIp,
    });
    return html(page, requestId);
  };
  return middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({ after: flushMetrics, onError: flushMetrics })
    .use({
      before: ({ event }) => {
        logger.appendKeys({ requestId: event.requestContext.requestId });
      },
      onError: (request) => {
        const unavailable = isUnavailable(request.error);
        logger.error(unavailable ? 'A service the survey page needs is unavailable' : 'Survey page failed', {
          error: { name: request.error?.name },
        });
        request.response = html(
          unavailable ? failure(503, request.event, 'unavailable') : failure(500, request.event, 'failed'),
          request.event.requestContext.requestId,
        );
        if (unavailable) request.response.headers = { ...request.response.headers, 'retry-after': String(RETRY_AFTER_SECONDS) };
      },
    })
    .handler(core);
}

/** The statuses every survey page route answers, for the OpenAPI document. */
export const PAGE_RESPONSES: Record<number, ResponseDoc> = {
  404: { description: 'Unknown or tampered link (HTML page)' },
  410: { description: 'Expired link (HTML page)' },
};
