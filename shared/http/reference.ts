import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { problem, problemResponse } from './problem.js';
import { DOCS_PATH, ENCODINGS, OPENAPI_PATH, REFERENCE_FILES } from './reference-data.js';

/**
 * The pages each API serves without a key: its OpenAPI document, a browsable reference (plain HTML, with Swagger UI
 * one link away), and the workspace's style sheet and chart scripts; every asset is served from here, so they work offline
 * and under a strict content security policy. The files, and each one compressed, are written at build time beside
 * the function's bundle; this only reads them. Requests are told apart by their route key (a named stage's raw path
 * carries the stage).
 */
type Encoding = keyof typeof ENCODINGS;

/** The best coding the request's Accept-Encoding admits (a coding with q=0 is refused), or undefined for none. */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  const admitted = new Map<string, number>();
  for (const part of (acceptEncoding ?? '').toLowerCase().split(',')) {
    const [coding, ...params] = part.split(';').map((p) => p.trim());
    if (!coding) continue;
    const q = params.find((p) => p.startsWith('q='));
    admitted.set(coding, q ? Number(q.slice(2)) || 0 : 1);
  }
  const quality = (coding: string) => admitted.get(coding) ?? admitted.get('*') ?? 0;
  return (Object.keys(ENCODINGS) as Encoding[]).find((coding) => quality(coding) > 0);
}

const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI (the console) sets styles on elements as it renders.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGES: Record<string, string> = { [OPENAPI_PATH]: 'openapi.json', [DOCS_PATH]: 'docs.html' };
const isPage = (file: string) => Object.values(PAGES).includes(file);

/** The file a request names, or undefined for an asset that is not in the reference. */
function fileOf(event: APIGatewayProxyEventV2): string | undefined {
  const page = PAGES[event.routeKey.replace(/^GET /, '')];
  if (page) return page;
  const asset = event.pathParameters?.asset;
  return asset && !isPage(asset) && Object.hasOwn(REFERENCE_FILES, asset) ? asset : undefined;
}

/** Serves the reference files of `dir`, compressed when the request admits it, each read once per container. */
export function referenceHandler(dir: string) {
  const files = new Map<string, Promise<Buffer>>();
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const name = fileOf(event);
    if (!name) return problemResponse(problem({ type: 'not-found', detail: 'No such file in the API reference.' }));
    const encoding = chooseEncoding(event.headers?.['accept-encoding']);
    const file = encoding ? `${name}${ENCODINGS[encoding]}` : name;
    let content = files.get(file);
    if (!content) files.set(file, (content = readFile(join(dir, file))));
    return {
      statusCode: 200,
      headers: {
        'content-type': REFERENCE_FILES[name]!,
        // The document and the pages change with each deployment; the libraries with their versions only.
        'cache-control': name.startsWith('swagger-ui') || name.startsWith('chart.') ? 'public, max-age=86400' : 'public, max-age=300',
        vary: 'accept-encoding',
        ...(encoding ? { 'content-encoding': encoding } : {}),
        'x-content-type-options': 'nosniff',
        ...(name.endsWith('.html') ? { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' } : {}),
      },
      body: (await content).toString(encoding ? 'base64' : 'utf8'),
      isBase64Encoded: encoding !== undefined,
    };
  };
}
