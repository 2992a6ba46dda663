import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { FAVICON_LINK } from '../shared/favicon.js';
import { ENCODINGS, REFERENCE_FILES } from '../shared/http/reference-data.js';
import { docsPage } from './docs-page.js';
import { openApiDocument } from './openapi.js';
import type { ApiName } from './routes.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const CHART_JS = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));
/** Compressed files by their content and settings: a synthesis, `npm start` and the tests compress each file once. */
const COMPRESSED = fileURLToPath(new URL('../node_modules/.cache/reference/', import.meta.url));

/**
 * Brotli at 9, not its best (11): 11 took 6 s more to write the reference for 8% less of Swagger UI (359 KB against
 * 392 KB). Gzip at its best. The same content at the same settings compresses to the same bytes, so a copy is kept
 * under the hash of both (about 4 CPU-seconds a reference, most of it Swagger UI's bundle).
 */
const COMPRESSORS = {
  br: (content: string | Buffer) => brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (content: string | Buffer) => gzipSync(content, { level: 9 }),
};
function compressed(content: string | Buffer, encoding: keyof typeof COMPRESSORS): Buffer {
  const key = createHash('sha256').update(`${encoding} ${COMPRESSORS[encoding].toString()}\n`).update(content).digest('hex');
  const cached = join(COMPRESSED, key);
  if (existsSync(cached)) return readFileSync(cached);
  const bytes = COMPRESSORS[encoding](content);
  mkdirSync(COMPRESSED, { recursive: true });
  writeFileSync(cached, bytes);
  return bytes;
}

const TITLES: Record<ApiName, string> = { public: 'public API', chatbot: 'chatbot API' };

/**
 * Writes one API's reference (the files REFERENCE_FILES names) into `dir`, or into a new temporary directory:
 * at build time for the deployment (the function serving them bundles the directory), on first use locally.
 */
export async function writeReference(api: ApiName, dir = mkdtempSync(join(tmpdir(), `reference-${api}-`))): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const document = await openApiDocument(api);
  // Without source map comments: the maps are not served.
  const unmapped = (file: string) => readFileSync(file, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
  const files: Record<string, string | Buffer> = {
    'openapi.json': JSON.stringify(document),
    'docs.html': docsPage(document),
    'docs.css': readFileSync(join(PAGES, 'docs.css')),
    // Swagger UI, to try the requests: one link away from /docs, so that reading the reference never loads it.
    // Relative addresses: the pages work under a named stage's path prefix as well as at the root.
    'console.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Satisfaction survey service: ${TITLES[api]} (Swagger UI)</title>${FAVICON_LINK}
<link rel="stylesheet" href="swagger-ui.css"></head>
<body><main id="reference"></main><script src="swagger-ui-bundle.js" defer></script><script src="console.js" defer></script></body></html>
`,
    'console.js': "window.ui = SwaggerUIBundle({ url: '../openapi.json', dom_id: '#reference', deepLinking: true });\n",
    'swagger-ui.css': readFileSync(join(SWAGGER_UI, 'swagger-ui.css')),
    'swagger-ui-bundle.js': unmapped(join(SWAGGER_UI, 'swagger-ui-bundle.js')),
    // The workspace's style sheet and its one script (the trend chart: the pages work without it).
    'app.css': readFileSync(join(PAGES, 'app.css')),
    'app.js': readFileSync(join(PAGES, 'app.js')),
    'chart.umd.min.js': unmapped(CHART_JS),
  };
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(join(dir, name), content);
    // Compressed once here rather than by each container; the handler picks what the browser takes.
    writeFileSync(join(dir, `${name}${ENCODINGS.br}`), compressed(content, 'br'));
    writeFileSync(join(dir, `${name}${ENCODINGS.gzip}`), compressed(content, 'gzip'));
  }
  const missing = Object.keys(REFERENCE_FILES)
    .flatMap((name) => [name, ...Object.values(ENCODINGS).map((suffix) => `${name}${suffix}`)])
    .filter((name) => !existsSync(join(dir, name)));
  if (missing.length) throw new Error(`The API reference lacks ${missing.join(', ')}`);
  return dir;
}
