import middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import * as v from 'valibot';
import { DomainError, NeedsUserError, TooManyError, UnavailableError, ValidationError, type ProblemKind } from '../errors.js';
import { logger } from '../logger.js';
import { flushMetrics } from '../metrics.js';
import { isUnavailable } from '../adapters/unavailable.js';
import { oneVersionPerRequest } from '../adapters/config-version.js';
import { parseAuthContext, tenantFromContext } from '../access/auth-context.js';
import { API_KEY_HEADER, USER_TOKEN_HEADER, USER_TOKEN_QUERY } from '../headers.js';
import { tenantAccess } from '../adapters/wiring/access.js';
import { requireScope, type UserNeed } from '../access/tenant-access.js';
import { AdminRefusedError, isAdminKey, requireAdmin, type AdminArea } from '../access/capabilities.js';
import type { AuditActor } from '../audit/log.js';
import type { UserRecord } from '../access/ports.js';
import type { ResponseDoc } from './contract.js';
import { API_HEADERS, problem, problemResponse, PROBLEMS, TransportError, type Problem, type TransportKind } from './problem.js';
import { validate } from './validate.js';

type Schema = v.GenericSchema;
type Out<S> = S extends Schema ? v.InferOutput<S> : undefined;

export const MAX_BODY_BYTES = 1024 * 1024;

export interface RouteSpec<B, P, Q> {
  body?: B;
  /**
   * The route reads its body as bytes (a file), not JSON: these are the media types it documents. The operation judges
   * the bytes by their content (a logo by its leading bytes), so the Content-Type header is not trusted either way.
   */
  bytes?: readonly string[];
  path?: P;
  query?: Q;
  /** Where the contract gives a route its own status for a problem (422 for an invalid list query, say). */
  statuses?: Partial<Record<ProblemKind | TransportKind, number>>;
  /** Routes outside the tenant (only /health). */
  anonymous?: true;
  /**
   * The user token the route needs: of `any` user of the tenant, or of one who sees every store. The wrapper resolves
   * it, and a refused token answers 401 whatever the operation did; a request whose body, path or query is invalid
   * has its token checked first, so that a caller without a valid token learns nothing about it (401 before any other
   * 4xx).
   */
  user?: UserNeed;
  /**
   * A query parameter whose value `me` names the caller's user (`owner=me`): with no user token at all it is refused
   * 400 naming the parameter rather than 401, so that a caller with a key alone learns which parameter wants a user.
   */
  meParameter?: string;
  /**
   * The seed's two lists (customers, flexible-form ratings) and the flexible-form read take the user token as the
   * `token` query parameter too, as the seed's clients send it. Every other route refuses a token in its URL (400):
   * a URL lands in access logs and browser histories, so the token goes in its header.
   */
  userTokenInQuery?: true;
  /**
   * An admin route and what it administers: an admin key may call it, or a user token whose user the one rule lets
   * administer the area (shared/access/capabilities.ts); anyone else is refused (403 by the contract).
   */
  admin?: AdminArea;
  /** What the operation answers, by status (for the OpenAPI document). */
  responses?: Record<number, ResponseDoc>;
}

export interface RequestInput<B, P, Q> {
  tenantId: number;
  body: Out<B>;
  path: Out<P>;
  query: Out<Q>;
  requestId: string;
  /**
   * The caller's user, on a route that declares `user`: its token (the `token` query parameter or the
   * `x-service-user-token` header) is read at the first call, once. Call it beside a read, not before, where the read
   * does not depend on it: the two round trips then overlap, and a refused token still wins. A route that needs every
   * store has it checked before the operation runs.
   */
  user: () => Promise<UserRecord>;
  /** The JSON body exactly as sent, before validation transformed it. */
  sent: unknown;
  /** The body's bytes, on a route that declares `bytes` (empty otherwise). */
  bytes: Uint8Array;
  /** Which of the tenant's API keys made the request (null on anonymous routes). */
  keyId: string | null;
  /**
   * Who the audit log names for a change: on an admin route called with a user token, the admin user; otherwise the
   * key (its id; 'unknown' only for contexts cached before ids existed).
   */
  actor: AuditActor;
  /** The request's `Accept` header, for the routes that answer more than JSON. */
  accept: string | undefined;
  /** The request's headers, names in lower case (as API Gateway gives them). */
  headers: Record<string, string | undefined>;
}

export interface Reply {
  status: number;
  body?: unknown;
  /** A body sent as it is, not as JSON (its `content-type` in `headers`). */
  text?: string;
  /** A binary answer (an image) instead of JSON: sent base64-encoded, with the content-type its headers give. */
  bytes?: Uint8Array;
  headers?: Record<string, string>;
}

type HttpEvent = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { lambda?: unknown } } };

/**
 * The one wrapper every HTTP handler uses: JSON body parsing, validation of body, path and query into typed input,
 * the tenant from the authorizer context, and problem+json for every failure, with the request id on every
 * response and log line.
 */
export function httpHandler<
  B extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
>(spec: RouteSpec<B, P, Q>, run: (input: RequestInput<B, P, Q>) => Promise<Reply>) {
  const statusOf = (kind: keyof typeof PROBLEMS) =>
    spec.statuses?.[kind as keyof NonNullable<RouteSpec<B, P, Q>['statuses']>] ?? PROBLEMS[kind].status;

  const core = async (event: HttpEvent): Promise<APIGatewayProxyStructuredResultV2> => {
    const requestId = event.requestContext.requestId;
    const tenantId = spec.anonymous ? 0 : tenantFromContext(event.requestContext.authorizer?.lambda);
    if (!spec.anonymous) logger.appendKeys({ tenantId });
    const { [USER_TOKEN_QUERY]: _token, ...query } = event.queryStringParameters ?? {};
    const user = spec.user ? once(() => tenantAccess.resolveUser(tenantId, userTokenOf(event, spec))) : undeclaredUser;
    let input: RequestInput<B, P, Q>;
    try {
      // The JSON parser below has replaced a JSON body with its value.
      const sent: unknown = spec.body ? event.body : undefined;
      input = {
        tenantId,
        body: validate(spec.body, sent, 'body') as Out<B>,
        path: validate(spec.path, event.pathParameters ?? {}, 'path') as Out<P>,
        // A route that takes no query parameters refuses any (but the user token), like a route that takes some.
        query: validate(spec.query ?? NO_QUERY, query, 'query') as Out<Q>,
        requestId,
        user,
        sent,
        bytes: spec.bytes ? bodyBytes(event) : new Uint8Array(),
        keyId: keyIdOf(event),
        actor: admins.get(event) ?? { keyId: keyIdOf(event) ?? 'unknown' },
        accept: event.headers?.accept,
        headers: event.headers ?? {},
      };
    } catch (invalid) {
      // A valid request checks its token beside its read (one round trip); an invalid one checks it first.
      if (spec.user) await user();
      throw invalid;
    }
    if (spec.meParameter && (input.query as Record<string, unknown>)[spec.meParameter] === 'me' && !userTokenOf(event, spec))
      throw new NeedsUserError(spec.meParameter, 'me', `header ${USER_TOKEN_HEADER}`);
    if (spec.user && spec.user !== 'any') requireScope(spec.user, await user());
    const outcome = await run(input).then(
      (reply) => ({ reply }),
      (error: unknown) => ({ error }),
    );
    // A refused token's 401 wins over whatever the operation answered or threw (a read may have run beside the check).
    if (spec.user) await user();
    if ('error' in outcome) throw outcome.error;
    const { reply } = outcome;
    return {
      statusCode: reply.status,
      headers: { 'content-type': 'application/json', ...API_HEADERS, 'x-request-id': requestId, ...reply.headers },
      ...(reply.bytes
        ? { body: Buffer.from(reply.bytes).toString('base64'), isBase64Encoded: true }
        : { body: reply.text ?? (reply.body === undefined ? '' : JSON.stringify(reply.body)) }),
    };
  };

  const toProblem = (error: unknown): Problem => {
    if (error instanceof TokenInUrlError) return problem({ type: error.kind, detail: error.message, errors: error.errors });
    if (error instanceof DomainError)
      return problem({ type: error.kind, detail: error.message, errors: error.errors, status: statusOf(error.kind) });
    if (error instanceof TransportError)
      return problem({ type: error.kind, detail: error.message, errors: [], status: statusOf(error.kind) });
    if (isUnavailable(error)) {
      logger.error('A service this request needs is unavailable', { error: { name: (error as Error).name } });
      const unavailable = new UnavailableError();
      return problem({ type: unavailable.kind, detail: unavailable.message });
    }
    logger.error('Unhandled error', error as Error);
    return problem({ type: 'internal', detail: 'An unexpected error occurred. Quote the x-request-id header when reporting it.' });
  };

  /** A request refused for its body has its user token checked first: a caller without a valid one learns nothing else. */
  const tokenFirst = async (event: HttpEvent): Promise<void> => {
    if (spec.user) await tenantAccess.resolveUser(tenantFromContext(event.requestContext.authorizer?.lambda), userTokenOf(event, spec));
  };

  const stack = middy<HttpEvent, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use({ after: flushMetrics, onError: flushMetrics })
    .use({
      // Authentication comes before anything about the body, so an anonymous caller learns nothing else.
      before: async ({ event }) => {
        logger.appendKeys({ requestId: event.requestContext.requestId });
        if (!spec.anonymous) await authenticate(event);
        if (!spec.userTokenInQuery && event.queryStringParameters?.[USER_TOKEN_QUERY] !== undefined) throw new TokenInUrlError();
        if (spec.admin) admins.set(event, await adminOf(event, spec.admin));
        try {
          checkBody(event, spec.body ? 'A JSON body is required.' : spec.bytes ? "The file's bytes are required as the body." : undefined);
          if (spec.body) checkJsonMediaType(event);
        } catch (refused) {
          await tokenFirst(event);
          throw refused;
        }
      },
      onError: async (request) => {
        const error = isJsonParserError(request.error)
          ? await tokenFirst(request.event).then(
              () => new TransportError('malformed-json', 'The body is not valid JSON.'),
              (refused: unknown) => refused,
            )
          : request.error;
        request.response = problemResponse(toProblem(error), {
          'x-request-id': request.event.requestContext.requestId,
          ...(error instanceof TooManyError ? { 'retry-after': String(error.retryAfterSeconds) } : {}),
        });
      },
    });
  // @middy/http-json-body-parser parses every JSON body, once its size, presence and media type are checked above.
  if (spec.body) stack.use(httpJsonBodyParser<HttpEvent>(JSON_BODY_OPTIONS));
  const handler = stack.handler(core);
  // Each invocation reads the configuration version at most once (config-version.ts).
  return (event: HttpEvent, context: Context) => oneVersionPerRequest(() => handler(event, context));
}

/** The admin of each admin-route request, found before the body is read. */
const admins = new WeakMap<HttpEvent, AuditActor>();

/**
 * Who may call an admin route: an admin key, or another key of the tenant with the user token of a user the rule lets
 * administer `area` (a refused token is 401, as on any route; a member's, or a store-limited admin's on a tenant-wide
 * route, is 403).
 */
async function adminOf(event: HttpEvent, area: AdminArea): Promise<AuditActor> {
  if (isAdminKey(scopeOf(event))) return { keyId: keyIdOf(event) ?? 'unknown' };
  const token = event.headers?.[USER_TOKEN_HEADER];
  if (!token) throw new AdminRefusedError('not-admin');
  const user = await tenantAccess.resolveUser(tenantFromContext(event.requestContext.authorizer?.lambda), token);
  requireAdmin(user, area);
  return { user: user.name };
}

const scopeOf = (event: HttpEvent): string => {
  const context = parseAuthContext(event.requestContext.authorizer?.lambda);
  return context.authenticated ? context.scope : '';
};

const keyIdOf = (event: HttpEvent): string | null => {
  const context = parseAuthContext(event.requestContext.authorizer?.lambda);
  return (context.authenticated && context.keyId) || null;
};

/** A promise made at the first call only; its rejection is left to whoever awaits it (never unhandled). */
function once<T>(start: () => Promise<T>): () => Promise<T> {
  let started: Promise<T> | undefined;
  return () => {
    if (!started) (started = start()).catch(() => undefined);
    return started;
  };
}

const undeclaredUser = (): Promise<UserRecord> => Promise.reject(new Error('The route does not declare a user in its contract.'));

/** The user token, from its header, or the `token` query parameter on the routes that take it there. */
const userTokenOf = (event: HttpEvent, spec: Pick<RouteSpec<unknown, unknown, unknown>, 'userTokenInQuery'>): string | undefined =>
  event.headers?.[USER_TOKEN_HEADER] ?? (spec.userTokenInQuery ? event.queryStringParameters?.[USER_TOKEN_QUERY] : undefined);

/** A user token in the URL of a route that takes it only as a header: 400 whatever its other invalid queries answer. */
class TokenInUrlError extends ValidationError {
  constructor() {
    super(`Send the user token in the ${USER_TOKEN_HEADER} header, not in the URL (URLs are logged).`, [
      { path: USER_TOKEN_QUERY, message: `is not taken in the URL here; use the ${USER_TOKEN_HEADER} header` },
    ]);
  }
}

/**
 * The tenant the authorizer found. When it could not check the key (the table was unreachable), the key is checked
 * again here: API Gateway caches the authorizer's answer, and the table may be back.
 */
async function authenticate(event: HttpEvent): Promise<void> {
  const context = parseAuthContext(event.requestContext.authorizer?.lambda);
  if (context.authenticated && context.checkedFor !== event.requestContext.requestId) {
    // An answer API Gateway cached for an earlier request: the key may have been revoked or reached its expiry (the end
    // of a rotation's grace) since. The expiry is checked on the clock, a change by one read of the configuration's
    // version (every change of a key raises it), and the key is read again only when the version moved. While the
    // table cannot be reached, the authorizer's own check stands, as the key memory keeps sales queueing.
    const rechecked = await tenantAccess.confirmCachedKey(event.headers?.[API_KEY_HEADER], context).catch((error: unknown) => {
      if (isUnavailable(error)) return context;
      throw error;
    });
    event.requestContext.authorizer = { lambda: rechecked };
  }
  if (!context.authenticated && context.recheck) {
    let rechecked;
    try {
      rechecked = await tenantAccess.authorizeKey(event.headers?.[API_KEY_HEADER], context.recheck);
    } catch {
      throw new UnavailableError();
    }
    event.requestContext.authorizer = { lambda: rechecked };
  }
  tenantFromContext(event.requestContext.authorizer?.lambda);
}

/** Every route bounds the body, whether it reads one or not; a route that reads one requires it (`required` says so). */
function checkBody(event: HttpEvent, required: string | undefined): void {
  const size = event.body ? Buffer.byteLength(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : 0;
  if (size > MAX_BODY_BYTES) throw new TransportError('payload-too-large', `The body may be at most ${MAX_BODY_BYTES} bytes.`);
  if (required && size === 0) throw new ValidationError(required, [{ path: 'body', message: 'is required' }]);
}

/** The body's bytes: API Gateway gives binary media types base64-encoded, text ones (an SVG is XML) as text. */
const bodyBytes = (event: HttpEvent): Uint8Array =>
  new Uint8Array(Buffer.from(event.body ?? '', event.isBase64Encoded ? 'base64' : 'utf8'));

const NO_QUERY = v.strictObject({});
const JSON_MEDIA_TYPE = /^application\/([\w.+-]+\+)?json\s*(;|$)/i;

/** Any JSON media type (a `+json` suffix too), in any case as HTTP allows (the parser's own check is case-sensitive). */
function checkJsonMediaType(event: HttpEvent): void {
  if (!JSON_MEDIA_TYPE.test(event.headers?.['content-type'] ?? ''))
    throw new TransportError('unsupported-media-type', 'Send the body as JSON with Content-Type: application/json.');
}

/**
 * disableContentTypeCheck is documented (middy.js.org) but left out of the package's types; disableContentTypeError,
 * its default, is named so that the object matches the declared options.
 */
const JSON_BODY_OPTIONS = { disableContentTypeCheck: true, disableContentTypeError: false };

/** The JSON parser's one refusal once the media type is checked: a body that does not parse (its 415, our 400). */
const isJsonParserError = (error: unknown): boolean =>
  error instanceof Error && (error.cause as { package?: unknown } | undefined)?.package === '@middy/http-json-body-parser';
