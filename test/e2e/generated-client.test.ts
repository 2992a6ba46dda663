import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { overHttp } from '../support/api.js';

/**
 * A client generated from the served documents with openapi-typescript, as a tenant's developer would generate
 * one, type-checks against a small hand-written client: the main shapes are named types, ids and paging are
 * numbers, and a field that is not in a shape is refused (so the types are not `any`).
 */
const CLIENT = `
import type { components, paths } from './public.js';
import type { components as chatbot } from './chatbot.js';

type Schemas = components['schemas'];
export type Named = [
  Schemas['Store'],
  Schemas['Customer'],
  Schemas['Employee'],
  Schemas['Transaction'],
  Schemas['Evaluation'],
  Schemas['ResultRow'],
  Schemas['Problem'],
  chatbot['schemas']['Survey'],
  chatbot['schemas']['Evaluation'],
];

type GetStore = paths['/public/store/{id}']['get'];
type StoreId = GetStore['parameters']['path']['id'];
type ListQuery = NonNullable<paths['/public/store']['get']['parameters']['query']>;

export async function getStore(base: string, key: string, id: StoreId): Promise<Schemas['Store'] | Schemas['Problem']> {
  const response = await fetch(\`\${base}/public/store/\${id}\`, { headers: { 'x-service-api-key': key } });
  if (response.status === 200) return (await response.json()) as GetStore['responses'][200]['content']['application/json'];
  return (await response.json()) as GetStore['responses'][404]['content']['application/problem+json'];
}

export async function storeNames(base: string, key: string, query: ListQuery): Promise<string[]> {
  const params = new URLSearchParams(Object.entries(query).map(([name, value]) => [name, String(value)]));
  const response = await fetch(\`\${base}/public/store?\${params}\`, { headers: { 'x-service-api-key': key } });
  const page = (await response.json()) as paths['/public/store']['get']['responses'][200]['content']['application/json'];
  return page.data.map((store) => store.trade_name);
}

export const first: ListQuery = { limit: 10, page: 1 };
export const id: StoreId = 1;
// @ts-expect-error an id is an integer, not text
export const textId: StoreId = '1';
// @ts-expect-error limit is an integer
export const textLimit: ListQuery = { limit: '10' };
export const nps = (row: Schemas['ResultRow']) => row.nps?.score;
// @ts-expect-error a store has no such field
export const missing = (store: Schemas['Store']) => store.no_such_field;
export const survey = (s: chatbot['schemas']['Survey']) => s;
`;

describe('a client generated from the documents with openapi-typescript', () => {
  it('has named types for the main shapes and type-checks a small client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'generated-client-'));
    for (const api of ['public', 'chatbot'] as const) {
      const { text } = await overHttp(api)({ path: '/openapi.json' });
      writeFileSync(join(dir, `${api}.ts`), astToString(await openapiTS(text)));
    }
    writeFileSync(join(dir, 'client.ts'), CLIENT);

    const program = ts.createProgram([join(dir, 'client.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      skipLibCheck: true,
      types: [],
    });
    const problems = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName.replace(dir, '') ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(problems).toEqual([]);
  }, 90_000);
});
