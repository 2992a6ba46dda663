/**
 * The reference pages' paths and files, as data: the route table, the stack, the OpenAPI document and the build
 * read them here; shared/http/reference.ts serves them.
 */
export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';
export const ASSET_PATH = '/assets/{asset}';
export const REFERENCE_ROUTES = [OPENAPI_PATH, DOCS_PATH, ASSET_PATH] as const;
/** Where the results page was before the workspace (issue 32): it redirects to /app/results now. */
export const RESULTS_ROUTE = '/results';

/** Each file of the reference directory, by the name a request asks for, and its media type. */
export const REFERENCE_FILES: Record<string, string> = {
  'openapi.json': 'application/json',
  'docs.html': 'text/html; charset=utf-8',
  'docs.css': 'text/css; charset=utf-8',
  'console.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'chart.umd.min.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
};

/**
 * The compressed copies written beside each file, by content coding, best first. A Lambda answers a compressed
 * body as base64 with its content-encoding; API Gateway passes both through (HTTP APIs compress nothing).
 */
export const ENCODINGS = { br: '.br', gzip: '.gz' } as const;
