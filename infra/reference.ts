import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE_FILES } from '../shared/http/reference.js';
import { openApiDocument } from './openapi.js';
import type { ApiName } from './routes.js';

const require = createRequire(import.meta.url);
const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));
const CHART_JS = join(dirname(require.resolve('chart.js')), 'chart.umd.min.js');
const PAGES = fileURLToPath(new URL('./pages/', import.meta.url));

const TITLES: Record<ApiName, string> = { public: 'public API', chatbot: 'chatbot API' };

/**
 * Writes one API's reference (the files REFERENCE_FILES names) into `dir`, or into a new temporary directory:
 * at build time for the deployment (the function serving them bundles the directory), on first use locally.
 */
export async function writeReference(api: ApiName, dir = mkdtempSync(join(tmpdir(), `reference-${api}-`))): Promise<string> {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'openapi.json'), JSON.stringify(await openApiDocument(api)));
  writeFileSync(
    join(dir, 'docs.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Satisfaction survey service: ${TITLES[api]}</title>
<link rel="stylesheet" href="assets/swagger-ui.css"><link rel="icon" href="assets/favicon-32x32.png"></head>
<body><main id="reference"></main><script src="assets/swagger-ui-bundle.js"></script><script src="assets/docs.js"></script></body></html>
`,
  );
  // Relative addresses: the page works under a named stage's path prefix as well as at the root.
  writeFileSync(join(dir, 'docs.js'), "window.ui = SwaggerUIBundle({ url: 'openapi.json', dom_id: '#reference', deepLinking: true });\n");
  for (const name of Object.keys(REFERENCE_FILES).filter((file) => file.startsWith('swagger-ui') || file.startsWith('favicon')))
    copyFileSync(join(SWAGGER_UI, name), join(dir, name));
  for (const name of ['results.html', 'results.js', 'results.css']) copyFileSync(join(PAGES, name), join(dir, name));
  // Without its source map comment: the map is not served.
  writeFileSync(join(dir, 'chart.umd.min.js'), readFileSync(CHART_JS, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'));
  const missing = Object.keys(REFERENCE_FILES).filter((name) => !existsSync(join(dir, name)));
  if (missing.length) throw new Error(`The API reference lacks ${missing.join(', ')}`);
  return dir;
}
