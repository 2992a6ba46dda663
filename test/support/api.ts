import { inject } from 'vitest';
import { createGateway, type GatewayResponse } from '../../infra/local/gateway.js';
import type { ApiName } from '../../infra/routes.js';

/**
 * One way to call the API in tests, whether in-process (the gateway's routing, the real authorizer and handler in
 * the test's own process) or over HTTP to the local stack, so one test body can run either way.
 */
export interface ApiRequest {
  method?: string;
  path: string;
  query?: Record<string, string | number | boolean>;
  /** The API key; omit for none. */
  key?: string;
  headers?: Record<string, string>;
  /** A value sent as JSON, or a string / Buffer sent as it is. */
  body?: unknown;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string>;
  /** Parsed JSON (tests read arbitrary fields of it), or the text when it is not JSON. */
  body: any;
  text: string;
  /** The Set-Cookie values, one each. */
  cookies: string[];
}

export type ApiClient = (request: ApiRequest) => Promise<ApiResponse>;

/** The request as the gateway receives it: path and query, headers (the key among them), and the body as bytes. */
export function prepare(request: ApiRequest): { url: string; headers: Record<string, string>; body: Buffer } {
  const query = new URLSearchParams(Object.entries(request.query ?? {}).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(request.key === undefined ? {} : { 'x-service-api-key': request.key }),
  };
  let body: Buffer = Buffer.alloc(0);
  if (request.body !== undefined) {
    const raw = typeof request.body === 'string' || Buffer.isBuffer(request.body);
    body = Buffer.isBuffer(request.body) ? request.body : Buffer.from(raw ? (request.body as string) : JSON.stringify(request.body));
    headers['content-type'] = 'application/json';
  }
  return { url: `${request.path}${query ? `?${query}` : ''}`, headers: { ...headers, ...request.headers }, body };
}

function parse(response: GatewayResponse): ApiResponse {
  const text = response.body.toString('utf8');
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body, text, cookies: response.cookies ?? [] };
}

/** `authorizerCacheTtlSeconds` as API Gateway's cache (0: the authorizer runs for every request). */
export function inProcess(api: ApiName = 'public', authorizerCacheTtlSeconds = 0): ApiClient {
  const gateway = createGateway({ api, authorizerCacheTtlSeconds });
  return async (request) => {
    const { url, headers, body } = prepare(request);
    return parse(await gateway({ method: request.method ?? 'GET', url, headers, body }));
  };
}

export function overHttp(api: ApiName = 'public'): ApiClient {
  const base = inject(api === 'public' ? 'publicUrl' : 'chatbotUrl');
  return async (request) => {
    const { url, headers, body } = prepare(request);
    const method = request.method ?? 'GET';
    const response = await fetch(`${base}${url}`, { method, headers, body: body.length ? body : undefined, redirect: 'manual' });
    return parse({
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      cookies: response.headers.getSetCookie(),
      body: Buffer.from(await response.arrayBuffer()),
    });
  };
}

/** The `path` of each error a problem answer names, in order (empty when it names none). */
export const errorPaths = (res: { body: { errors?: { path: string }[] } }): string[] => (res.body.errors ?? []).map((e) => e.path);
