import { rmSync } from 'node:fs';
import { createServer, validateHeaderName, validateHeaderValue, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { API_KEY_HEADER } from '../../shared/headers.js';
import { referenceHandler } from '../../shared/http/reference.js';
import { authorizers, referencePaths, routes, sessionAuthorizer, workspaceRoutes, type ApiName, type Route } from '../routes.js';
import { authorizerEvent, httpEvent } from './events.js';
import { invoke } from './invoke.js';
import { authorizerId, referenceId } from '../grants.js';
import { StartupError } from './services.js';
import { stopping } from './listen.js';

/**
 * A small stand-in for API Gateway HTTP API: matches the route table, runs the API's real authorizer (caching its
 * answer per key for `authorizerCacheTtlSeconds`, as API Gateway does) and the route's real handler, and answers
 * API Gateway's own bodies where API Gateway would answer without calling a function.
 */
type Handler = (event: unknown, context: Context) => Promise<unknown>;

const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions/', import.meta.url));
/** API Gateway's payload limit for HTTP APIs; our handlers enforce their own, smaller one. */
const GATEWAY_MAX_BODY = 10 * 1024 * 1024;
/** The media types API Gateway HTTP API passes as text; every other body (form posts, no type at all) is base64. */
const TEXT_TYPES = /^(text\/[\w.+-]+|application\/(json|xml|javascript))\s*(;|$)/i;

interface CompiledRoute {
  route: Route;
  path: string;
  pattern: RegExp;
  params: string[];
}

export interface GatewayOptions {
  api: ApiName;
  port: number;
  host?: string;
  authorizerCacheTtlSeconds?: number;
}

export interface Gateway {
  url: string;
  server: Server;
  close(): Promise<void>;
}

const modules = new Map<string, Promise<Handler>>();
/** A function's `handler`, imported once, as Lambda does per container. */
export function loadHandler(file: string): Promise<Handler> {
  let loaded = modules.get(file);
  if (!loaded) {
    loaded = import(pathToFileURL(FUNCTIONS_DIR + file).href).then((module: { handler: Handler }) => module.handler);
    modules.set(file, loaded);
  }
  return loaded;
}

function compile(api: ApiName): CompiledRoute[] {
  const compiled = [...routes, ...workspaceRoutes]
    .filter((route) => route.api === api)
    .flatMap((route) =>
      route.paths.map((path) => {
        const params: string[] = [];
        const source = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
          params.push(name);
          return '([^/]+)';
        });
        return { route, path, pattern: new RegExp(`^${source}$`), params };
      }),
    );
  // API Gateway prefers the most specific route: fewer path variables first.
  return compiled.sort((a, b) => a.params.length - b.params.length);
}

export interface GatewayRequest {
  method: string;
  /** Path and query string, e.g. /public/store?limit=5. */
  url: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface GatewayResponse {
  status: number;
  headers: Record<string, string>;
  /** The function's `cookies`: one Set-Cookie header each, as API Gateway sends them. */
  cookies?: string[];
  body: Buffer;
}

/**
 * The route of the table a request matches and the event API Gateway builds for it (payload format 2.0, without the
 * authorizer's context), or undefined when no route matches.
 */
export function createRouter(
  api: ApiName,
): (
  method: string,
  url: URL,
  request: Omit<GatewayRequest, 'url' | 'method'>,
) => { route: Route; event: ReturnType<typeof httpEvent> } | undefined {
  const table = compile(api);
  return (method, url, request) => {
    // As API Gateway does, a path with a trailing slash matches the route without it (/app/ is /app's).
    const path = url.pathname.length > 1 ? url.pathname.replace(/\/$/, '') : url.pathname;
    const match = table.map((r) => ({ r, m: r.route.method === method ? r.pattern.exec(path) : null })).find((x) => x.m);
    if (!match) return undefined;
    const { r: compiled, m } = match;
    const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const binary = request.body.length > 0 && !TEXT_TYPES.test(headers['content-type'] ?? '');
    const event = httpEvent({
      method,
      routePath: compiled.path,
      rawPath: url.pathname,
      headers,
      query: flattenQuery(url.searchParams),
      pathParameters: Object.fromEntries(compiled.params.map((name, i) => [name, decodePathParameter(m![i + 1]!)])),
      body: request.body.length ? request.body.toString(binary ? 'base64' : 'utf8') : undefined,
      isBase64Encoded: binary,
    });
    return { route: compiled.route, event };
  };
}

/** The gateway without a socket: tests call this in-process; `startGateway` serves it over HTTP. */
export function createGateway(options: Omit<GatewayOptions, 'port'>): (request: GatewayRequest) => Promise<GatewayResponse> {
  const route = createRouter(options.api);
  const ttlMs = (options.authorizerCacheTtlSeconds ?? 0) * 1000;
  const cache = new Map<string, { context: unknown; expires: number }>();
  const authorizer = authorizers[options.api];

  async function authorize(event: ReturnType<typeof httpEvent>, key: string): Promise<unknown> {
    const cached = cache.get(key);
    if (cached && cached.expires > Date.now()) return cached.context;
    const result = (await invoke(
      authorizerId(options.api),
      { load: () => loadHandler(authorizer.handler) },
      authorizerEvent(event, [key]),
    )) as {
      isAuthorized: boolean;
      context?: unknown;
    };
    if (!result.isAuthorized) throw new GatewayAnswer(403, 'Forbidden');
    if (ttlMs > 0) cache.set(key, { context: result.context, expires: Date.now() + ttlMs });
    return result.context;
  }

  return async (request): Promise<GatewayResponse> => {
    try {
      // API Gateway matches the path as sent: it resolves no dot segments and merges no slashes, so neither do we.
      const rawPath = request.url.split('?')[0]!;
      if (!rawPath.startsWith('/') || rawPath.includes('//') || rawPath.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment)))
        throw new GatewayAnswer(404, 'Not Found');
      const url = new URL(`http://localhost${request.url}`);
      const { method } = request;
      const referenced = await referenceRoute(options.api, method, url, request.headers);
      if (referenced) return referenced;
      const routed = route(method, url, request);
      if (!routed) throw new GatewayAnswer(404, 'Not Found');
      const { route: matched, event } = routed;
      if (matched.session) {
        // No identity source and no cache (infra/stack.ts): every request of a workspace page reaches the authorizer.
        const result = (await invoke(
          sessionAuthorizer.id,
          { load: () => loadHandler(sessionAuthorizer.handler) },
          authorizerEvent(event, []),
        )) as { isAuthorized: boolean; context?: unknown };
        if (!result.isAuthorized) throw new GatewayAnswer(403, 'Forbidden');
        event.requestContext.authorizer = { lambda: result.context };
      } else if (!matched.anonymous) {
        const key = event.headers[API_KEY_HEADER];
        // With an identity source, API Gateway answers a request that lacks it without calling the authorizer.
        if (!key) throw new GatewayAnswer(401, 'Unauthorized');
        event.requestContext.authorizer = { lambda: await authorize(event, key) };
      }
      const result = (await invoke(
        matched.operationId,
        { load: () => loadHandler(matched.handler) },
        event,
      )) as APIGatewayProxyStructuredResultV2;
      return {
        status: result.statusCode ?? 200,
        headers: { ...(result.headers as Record<string, string>), 'apigw-requestid': event.requestContext.requestId },
        ...(result.cookies?.length ? { cookies: result.cookies } : {}),
        body: Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'),
      };
    } catch (error) {
      if (!(error instanceof GatewayAnswer)) console.error('local gateway: function failed', error);
      const answer = error instanceof GatewayAnswer ? error : new GatewayAnswer(500, 'Internal Server Error');
      return answer.response();
    }
  };
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  return serveGateway(createGateway(options), options);
}

/** Serves a gateway over HTTP: whatever it answers, the server answers something and goes on serving. */
export async function serveGateway(
  gateway: (request: GatewayRequest) => Promise<GatewayResponse>,
  options: Pick<GatewayOptions, 'api' | 'port' | 'host'>,
): Promise<Gateway> {
  const server = createServer(async (req, res) => {
    let response: GatewayResponse;
    try {
      const body = await readBody(req);
      response = await gateway({ method: req.method ?? 'GET', url: req.url ?? '/', headers: flattenHeaders(req), body });
    } catch (error) {
      response = (error instanceof GatewayAnswer ? error : new GatewayAnswer(400, 'Bad Request')).response();
    }
    const headers = {
      ...response.headers,
      ...(response.cookies ? { 'set-cookie': response.cookies } : {}),
      'content-length': String(response.body.length),
    };
    const invalid = invalidHeader(headers);
    if (invalid) {
      // writeHead would throw, out of this request and through the process: API Gateway answers its 500 instead.
      console.error(`local gateway: the function answered an invalid ${invalid} header`);
      response = new GatewayAnswer(500, 'Internal Server Error').response();
      res.writeHead(response.status, { ...response.headers, 'content-length': response.body.length });
    } else res.writeHead(response.status, headers);
    res.end(response.body);
  });
  // An idle connection is closed by the client first, as by API Gateway's long idle timeout: with a short one
  // (Node's 5 s), a client reusing a socket the server is closing at that instant reads "other side closed", which
  // a loaded machine hits every few thousand requests (undici closes at the server's hint less one second).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new StartupError(`Port ${options.port} (${options.api} API) is in use: stop what uses it or set another port.`)
          : error,
      ),
    );
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://localhost:${port}`,
    server,
    close: () => stopping(server),
  };
}

const references = new Map<ApiName, Promise<Handler>>();

/**
 * The API's reference handler over its files, written once (the OpenAPI document, the /docs page and each file
 * compressed: 2-3 s of CPU here). `npm start` calls it as soon as it listens, as the deployment writes them at build
 * time, so that the first person to open /docs does not wait for it; tests leave it to the first request.
 */
export function prepareReference(api: ApiName): Promise<Handler> {
  let ready = references.get(api);
  // The writer is loaded here, not with the gateway: it builds the OpenAPI document from every schema of the service
  // (2.5 s of CPU to import), which a test file that never opens the reference would load for nothing.
  if (!ready)
    references.set(
      api,
      (ready = import('../reference.js')
        .then(({ writeReference }) => writeReference(api))
        .then((dir) => {
          // A temporary directory of about 3 MB: removed when this process ends, as each `npm start` and test run would
          // otherwise leave one behind.
          process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
          return referenceHandler(dir) as Handler;
        })),
    );
  return ready;
}

/**
 * The API reference, served by its real handler over files written by `prepareReference` (as the deployment writes
 * them at build time): the document is generated from the code as it is now.
 */
async function referenceRoute(
  api: ApiName,
  method: string,
  url: URL,
  headers: Record<string, string>,
): Promise<GatewayResponse | undefined> {
  const path = referencePaths(api).find((p) => new RegExp(`^${p.replace(/\{\w+\}/, '([^/]+)')}$`).test(url.pathname));
  if (method !== 'GET' || !path) return undefined;
  const serve = await prepareReference(api);
  const asset = path.includes('{asset}') ? decodePathParameter(url.pathname.slice(path.indexOf('{asset}'))) : undefined;
  const event = httpEvent({
    method,
    routePath: path,
    rawPath: url.pathname,
    // Accept-Encoding among them: the function may answer a compressed body, passed on as it is (content-encoding too).
    headers,
    ...(asset ? { pathParameters: { asset } } : {}),
  });
  const result = (await invoke(referenceId(api), serve, event)) as APIGatewayProxyStructuredResultV2;
  return {
    status: result.statusCode ?? 200,
    headers: result.headers as Record<string, string>,
    body: Buffer.from(result.body ?? '', result.isBase64Encoded ? 'base64' : 'utf8'),
  };
}

/** An answer API Gateway gives by itself, with its own bare JSON body. */
class GatewayAnswer extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }

  response(): GatewayResponse {
    return {
      status: this.status,
      headers: { 'content-type': 'application/json' },
      body: Buffer.from(JSON.stringify({ message: this.message })),
    };
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > GATEWAY_MAX_BODY) throw new GatewayAnswer(413, 'Request Entity Too Large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** The first header (by name, never its value: it may hold a link) that Node refuses to send, if any. */
function invalidHeader(headers: Record<string, string | string[]>): string | undefined {
  for (const [name, value] of Object.entries(headers))
    try {
      validateHeaderName(name);
      for (const one of [value].flat()) validateHeaderValue(name, one);
    } catch {
      return /^[\w-]{1,64}$/.test(name) ? name : 'named';
    }
  return undefined;
}

/** API Gateway decodes path parameters; a malformed escape is passed on as it came. */
function decodePathParameter(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Repeated headers and query parameters are joined with commas, as payload format 2.0 does. */
function flattenHeaders(req: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(req.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(',') : String(value)]),
  );
}

function flattenQuery(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of new Set(params.keys())) query[name] = params.getAll(name).join(',');
  return query;
}
