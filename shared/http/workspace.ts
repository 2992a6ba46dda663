import { RETRY_AFTER_SECONDS } from './problem.js';
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { UnauthenticatedError } from '../errors.js';
import { isUnavailable } from '../adapters/unavailable.js';
import { logger } from '../logger.js';
import { flushMetrics } from '../metrics.js';
import { sessionFromContext } from '../session/context.js';
import {
  CHALLENGE_COOKIE,
  clearedCookies,
  cookieValue,
  REFRESH_COOKIE,
  sameOrigin,
  SESSION_COOKIE,
  SHOWN_ONCE_COOKIE,
} from '../session/cookies.js';
import { REFRESH_PATH } from '../session/paths.js';
import type { SessionClaims } from '../session/ports.js';
import type { WebAnswer } from '../web-answer.js';
import { layout, messageBody, tenantLookOf, WORKSPACE_HEADERS, type TenantLook } from '../workspace/layout.js';
import { localeOfRequest, workspaceTranslator } from '../i18n/messages.js';
import { tenantSettings } from '../adapters/wiring/tenants.js';
import { MAX_FORM_BYTES } from './page.js';
import { tenantAccess } from '../adapters/wiring/access.js';
import type { UserRecord } from '../access/ports.js';

export interface WorkspaceInput {
  /** The stage's path prefix: '' at the root (`$default`), `/prod` under a named stage. */
  base: string;
  /** The gateway's request id, for the access log. */
  requestId: string;
  /** The address the request came from (API Gateway's source IP): never logged. */
  address: string;
  query: Record<string, string | undefined>;
  /** The browser's Accept-Language (the sign-in pages' language). */
  acceptLanguage: string | undefined;
  /** The route's path parameters (`/app/cases/{id}`). */
  path: Record<string, string | undefined>;
  form: URLSearchParams;
  /** The body as sent, and its type: a multipart form's (an upload) is read by the page itself. */
  body: Buffer;
  contentType: string | undefined;
  /** The session's cookies, as sent: never logged. */
  cookies: {
    session?: string | undefined;
    refresh?: string | undefined;
    challenge?: string | undefined;
    /** An admin page's secret, carried from its post to the page after it (shared/session/cookies.ts). */
    shownOnce?: string | undefined;
  };
}

type Event = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: unknown } } };

const baseOf = (event: Event) =>
  event.requestContext.stage && event.requestContext.stage !== '$default' ? `/${event.requestContext.stage}` : '';

const html = (answer: WebAnswer, requestId: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: answer.status,
  headers: {
    ...WORKSPACE_HEADERS,
    'x-request-id': requestId,
    ...(answer.location ? { location: answer.location } : {}),
    ...(answer.retryAfter ? { 'retry-after': String(answer.retryAfter) } : {}),
    ...(answer.file
      ? { ...answer.file.headers, 'content-type': answer.file.type, 'content-disposition': `attachment; filename="${answer.file.name}"` }
      : {}),
  },
  ...(answer.cookies?.length ? { cookies: answer.cookies } : {}),
  body: answer.file?.body ?? answer.html ?? '',
});

/** The wrapper's own pages: a refused post, a form too long, a user the tenant lacks, a failure. */
export type WrapperPage = 'refused' | 'tooLong' | 'noAccess' | 'unavailable' | 'failed';

/** One of the wrapper's pages, in a language and brand (the tenant's, or the browser's before a tenant is known). */
export function wrapperPage({
  base,
  status,
  page,
  look,
  cookies,
}: {
  base: string;
  status: number;
  page: WrapperPage;
  look: Pick<TenantLook, 'locale'> & Partial<Pick<TenantLook, 'brand'>>;
  cookies?: string[];
}): WebAnswer {
  const t = workspaceTranslator(look.locale);
  const title = t(`workspace.page.${page}.title`);
  return {
    status,
    html: layout({ title, base, body: messageBody(title, t(`workspace.page.${page}.text`)), locale: look.locale, brand: look.brand }),
    ...(cookies ? { cookies } : {}),
  };
}

/**
 * How the wrapper's pages look: the tenant's language and brand once a session names the tenant, else the browser's
 * language; the browser's also when the table is what failed (no second wait for it), or the settings cannot be read.
 */
async function lookOf(event: Event, tableFailed = false): Promise<Pick<TenantLook, 'locale'> & Partial<Pick<TenantLook, 'brand'>>> {
  const session = sessionFromContext(event.requestContext.authorizer?.lambda);
  const browser = { locale: localeOfRequest(event.headers?.['accept-language']) };
  if (!session || tableFailed) return browser;
  return tenantSettings(session.tenantId).then(tenantLookOf, () => browser);
}

/**
 * The wrapper of the workspace's pages: HTML for every answer, the security headers, a bounded form, posts only from
 * the workspace's own pages (Origin), and an unexpected failure as a generic page, logged without cookie or form.
 * `signedIn` pages get the session the authorizer verified; a request without one goes to be signed in (through the
 * refresh, which signs in again silently while the refresh token is valid).
 */
export const workspacePage = (run: (input: WorkspaceInput) => Promise<WebAnswer>) => wrap(false, run);
/** `maxBytes`: a larger body than a form's (a page that takes an upload). */
export const signedInPage = (run: (input: SignedInInput) => Promise<WebAnswer>, { maxBytes = MAX_FORM_BYTES } = {}) =>
  wrap(true, run, maxBytes);

/** A signed-in page's input: the session, and the tenant user it names (read on the first call, once). */
export type SignedInInput = WorkspaceInput & { session: SessionClaims; user: () => Promise<UserRecord> };

function wrap(signedIn: boolean, run: (input: SignedInInput) => Promise<WebAnswer>, maxBytes = MAX_FORM_BYTES) {
  const core = async (event: Event): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = event.requestContext.requestId;
    const base = baseOf(event);
    const post = event.requestContext.http.method === 'POST';
    if (post && !sameOrigin(event.headers ?? {}))
      return html(wrapperPage({ base, status: 403, page: 'refused', look: await lookOf(event) }), requestId);
    const bytes = event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
    if (bytes.length > maxBytes) return html(wrapperPage({ base, status: 413, page: 'tooLong', look: await lookOf(event) }), requestId);
    const session = sessionFromContext(event.requestContext.authorizer?.lambda);
    if (signedIn && !session) {
      const here = `${event.rawPath}${event.rawQueryString ? `?${event.rawQueryString}` : ''}`;
      return html({ status: 303, location: `${base}${REFRESH_PATH}?next=${encodeURIComponent(here)}` }, requestId);
    }
    if (session) logger.appendKeys({ tenantId: session.tenantId });
    const cookies = event.cookies;
    let user: Promise<UserRecord> | undefined;
    const answer = await run({
      base,
      requestId,
      address: event.requestContext.http.sourceIp,
      query: event.queryStringParameters ?? {},
      acceptLanguage: event.headers?.['accept-language'],
      path: event.pathParameters ?? {},
      form: new URLSearchParams(bytes.toString('utf8')),
      body: bytes,
      contentType: event.headers?.['content-type'],
      cookies: {
        session: cookieValue(cookies, SESSION_COOKIE),
        refresh: cookieValue(cookies, REFRESH_COOKIE),
        challenge: cookieValue(cookies, CHALLENGE_COOKIE),
        shownOnce: cookieValue(cookies, SHOWN_ONCE_COOKIE),
      },
      session: session!,
      user: () => (user ??= tenantAccess.resolveSessionUser(session!.tenantId, session!.user)),
    });
    return html(answer, requestId);
  };
  return middy<Event, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({ after: flushMetrics, onError: flushMetrics })
    .use({
      before: ({ event }) => {
        logger.appendKeys({ requestId: event.requestContext.requestId });
      },
      onError: async (request) => {
        const base = baseOf(request.event);
        const { error } = request;
        const look = await lookOf(request.event, isUnavailable(error));
        let answer: WebAnswer;
        if (error instanceof UnauthenticatedError) {
          // Cognito knows the user, the tenant does not (any more): signed out, with a word why.
          logger.info('Session of a user the tenant does not have');
          answer = wrapperPage({ base, status: 403, page: 'noAccess', look, cookies: clearedCookies(base) });
        } else if (isUnavailable(error)) {
          logger.error('A service the workspace needs is unavailable', { error: { name: error?.name } });
          answer = wrapperPage({ base, status: 503, page: 'unavailable', look });
        } else {
          logger.error('Workspace page failed', { error: { name: error?.name } });
          answer = wrapperPage({ base, status: 500, page: 'failed', look });
        }
        request.response = html(answer, request.event.requestContext.requestId);
        if (answer.status === 503) request.response.headers = { ...request.response.headers, 'retry-after': String(RETRY_AFTER_SECONDS) };
      },
    })
    .handler(core);
}
