import { mkdirSync, writeFileSync } from 'node:fs';
import { openApiDocument } from './openapi.js';

/** `npm run openapi`: writes both documents to dist/openapi/ for publishing. */
process.env.TABLE_NAME ??= 'openapi';
const dir = new URL('../dist/openapi/', import.meta.url);
mkdirSync(dir, { recursive: true });
for (const api of ['public', 'chatbot'] as const) {
  writeFileSync(new URL(`${api}.json`, dir), `${JSON.stringify(await openApiDocument(api), null, 2)}\n`);
  console.log(`dist/openapi/${api}.json`);
}
