import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { problem, problemResponse } from './problem.js';

/**
 * The pages each API serves without a key: its OpenAPI document, a browsable reference (Swagger UI) and, on the
 * public API, the results page; every asset is served from here, so they work offline and under a strict content
 * security policy. The files are written
 * at build time beside the function's bundle; this only reads them. Requests are told apart by their route key
 * (a named stage's raw path carries the stage).
 */
export const REFERENCE_ROUTES = ['/openapi.json', '/docs', '/assets/{asset}'] as const;
/** The results page (the public API's only): it asks for the key and a user token and reads GET /public/results. */
export const RESULTS_ROUTE = '/results';

interface ReferenceFile {
  type: string;
  binary?: true;
}

/** Each file of the reference directory, by the name a request asks for. */
export const REFERENCE_FILES: Record<string, ReferenceFile> = {
  'openapi.json': { type: 'application/json' },
  'docs.html': { type: 'text/html; charset=utf-8' },
  'docs.js': { type: 'text/javascript; charset=utf-8' },
  'results.html': { type: 'text/html; charset=utf-8' },
  'results.js': { type: 'text/javascript; charset=utf-8' },
  'results.css': { type: 'text/css; charset=utf-8' },
  'chart.umd.min.js': { type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { type: 'text/css; charset=utf-8' },
  'swagger-ui-bundle.js': { type: 'text/javascript; charset=utf-8' },
  'favicon-32x32.png': { type: 'image/png', binary: true },
};

const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets styles on elements as it renders.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const PAGES: Record<string, string> = { '/openapi.json': 'openapi.json', '/docs': 'docs.html', [RESULTS_ROUTE]: 'results.html' };
const isPage = (file: string) => Object.values(PAGES).includes(file);

/** The file a request names, or undefined for an asset that is not in the reference. */
function fileOf(event: APIGatewayProxyEventV2): string | undefined {
  const page = PAGES[event.routeKey.replace(/^GET /, '')];
  if (page) return page;
  const asset = event.pathParameters?.asset;
  return asset && !isPage(asset) && Object.hasOwn(REFERENCE_FILES, asset) ? asset : undefined;
}

/** Serves the reference files of `dir`, each read once per container. */
export function referenceHandler(dir: string) {
  const files = new Map<string, Promise<Buffer>>();
  return async (event: APIGatewayProxyEventV2): Promise<APIGatewayProxyStructuredResultV2> => {
    const name = fileOf(event);
    if (!name) return problemResponse(problem('not-found', 'No such file in the API reference.'));
    let content = files.get(name);
    if (!content) files.set(name, (content = readFile(join(dir, name))));
    const { type, binary } = REFERENCE_FILES[name]!;
    return {
      statusCode: 200,
      headers: {
        'content-type': type,
        // The document and the page change with each deployment; the assets with the Swagger UI version only.
        'cache-control':
          name.startsWith('swagger-ui') || name.startsWith('chart.') || binary ? 'public, max-age=86400' : 'public, max-age=300',
        'x-content-type-options': 'nosniff',
        ...(name.endsWith('.html') ? { 'content-security-policy': PAGE_POLICY, 'referrer-policy': 'no-referrer' } : {}),
      },
      body: (await content).toString(binary ? 'base64' : 'utf8'),
      isBase64Encoded: binary === true,
    };
  };
}
