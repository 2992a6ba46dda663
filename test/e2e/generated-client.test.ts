import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
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

/**
 * An integrator's first program: 10 operations of the public API, written against the generated types. Each line the
 * document of commit 4bfcc82 (before the answers were typed) could not compile is marked with what it needed.
 */
const TEN_OPERATIONS = `
import type { components, paths } from './public.js';

type Schemas = components['schemas'];
type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;

export interface Api {
  base: string;
  key: string;
}
const headers = (api: Api, more: Record<string, string> = {}) => ({ 'x-service-api-key': api.key, ...more });

type PostTransaction = paths['/v2/transactions']['post'];
/** 1. An integrator's first call: the 201 answers the sent object, and x-request-id names the request to follow. */
export async function queue(api: Api, body: Schemas['V2Transaction']): Promise<{ sent: Schemas['V2Transaction']; requestId: string }> {
  const response = await fetch(\`\${api.base}/v2/transactions\`, { method: 'POST', headers: headers(api), body: JSON.stringify(body) });
  const requestId = response.headers.get('x-request-id')!;
  const sent = await json<PostTransaction['responses'][201]['content']['application/json']>(response); // [201 body]
  return { sent, requestId };
}

/** The header names the request: the id to follow it by. */
type RequestId = PostTransaction['responses'][201]['headers']['x-request-id'];
export const follow = (api: Api, id: RequestId) => outcome(api, id); // [x-request-id]

/** 2. What became of it: a closed set of states. */
export async function outcome(api: Api, requestId: string): Promise<'wait' | 'done' | 'fix'> {
  const response = await fetch(\`\${api.base}/v2/transactions/requests/\${requestId}\`, { headers: headers(api) });
  const { status } = await json<Schemas['TransactionRequest']>(response);
  switch (status) {
    case 'pending':
      return 'wait';
    case 'created':
      return 'done';
    case 'rejected':
    case 'failed':
      return 'fix';
  }
}

type GetConfig = paths['/public/admin/config']['get'];
type PutConfig = paths['/public/admin/config']['put'];
/** 3 and 4. Read the configuration with its ETag, and replace it with If-Match (required: 428 without it). */
export async function rename(api: Api, locale: Schemas['Config']['locale']): Promise<PutConfig['responses'][200]['headers']['ETag']> {
  const read = await fetch(\`\${api.base}/public/admin/config\`, { headers: headers(api) });
  const etag: GetConfig['responses'][200]['headers']['ETag'] = read.headers.get('etag')!;
  const config = await json<Schemas['Config']>(read);
  const condition: PutConfig['parameters']['header'] = { 'If-Match': etag }; // [If-Match]
  const written = await fetch(\`\${api.base}/public/admin/config\`, {
    method: 'PUT',
    headers: headers(api, condition),
    body: JSON.stringify({ ...config, locale }),
  });
  return written.headers.get('etag')!;
}

type CaseId = paths['/public/cases/{id}']['get']['parameters']['path']['id'];
type PatchCase = paths['/public/cases/{id}']['patch'];
/** 5 and 6. A case read, then moved from that version. */
export async function start(api: Api, id: CaseId, token: string): Promise<Schemas['Case']['status']> {
  const read = await fetch(\`\${api.base}/public/cases/\${id}\`, { headers: headers(api, { 'x-service-user-token': token }) });
  const found = await json<Schemas['Case']>(read);
  const body: PatchCase['requestBody']['content']['application/json'] = { status: 'in_progress' };
  const condition: PatchCase['parameters']['header'] = { 'If-Match': read.headers.get('etag')! }; // [If-Match]
  const moved = await fetch(\`\${api.base}/public/cases/\${found.id}\`, {
    method: 'PATCH',
    headers: headers(api, { ...condition, 'x-service-user-token': token }),
    body: JSON.stringify(body),
  });
  return (await json<Schemas['Case']>(moved)).status;
}

/** 7. Answers by channel: a closed set, so a typo is caught. */
export async function byChannel(api: Api, token: string): Promise<Partial<Record<Schemas['Answer']['channel'], number>>> {
  const response = await fetch(\`\${api.base}/public/answers\`, { headers: headers(api, { 'x-service-user-token': token }) });
  const page = await json<Json<paths['/public/answers']['get']['responses'][200]>>(response);
  const counts: Partial<Record<Schemas['Answer']['channel'], number>> = {};
  for (const answer of page.data) counts[answer.channel] = (counts[answer.channel] ?? 0) + 1;
  return counts;
}
type AnswerRow = Json<paths['/public/answers']['get']['responses'][200]>['data'][number];
// @ts-expect-error fax is no channel [enum]
export const fax: AnswerRow['channel'] = 'fax';

/** 8. Results: the indicator says how to read the score. */
export async function headline(api: Api, query: paths['/public/results']['get']['parameters']['query']): Promise<string> {
  const response = await fetch(\`\${api.base}/public/results?\${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]))}\`, {
    headers: headers(api),
  });
  const report = await json<Schemas['Results']>(response);
  const kind: 'nps' | 'csat' | 'csat5Stars' | 'ces' | 'binary' = report.journey.indicator;
  return \`\${kind}: \${report.data.length} rows\`;
}

/** 9. Admin keys: their scope is one of three. */
export async function adminKeys(api: Api): Promise<Schemas['ApiKey'][]> {
  const response = await fetch(\`\${api.base}/public/admin/keys\`, { headers: headers(api) });
  const { data } = await json<Json<paths['/public/admin/keys']['get']['responses'][200]>>(response);
  return data.filter((key) => key.scope === 'admin');
}
type KeyRow = Json<paths['/public/admin/keys']['get']['responses'][200]>['data'][number];
// @ts-expect-error a key's scope is public, chatbot or admin [enum]
export const superuser: KeyRow['scope'] = 'root';

/** 10. The audit log: what each change was. */
export async function keyChanges(api: Api): Promise<Schemas['AuditEntry'][]> {
  const response = await fetch(\`\${api.base}/public/admin/audit\`, { headers: headers(api) });
  const { data } = await json<Json<paths['/public/admin/audit']['get']['responses'][200]>>(response);
  return data.filter((entry) => entry.action.startsWith('key.'));
}
type AuditRow = Json<paths['/public/admin/audit']['get']['responses'][200]>['data'][number];
// @ts-expect-error an audit action is one of the log's [enum]
export const unknownAction: AuditRow['action'] = 'config.delete';
`;

/** The public API's document before its answers were typed (commit 4bfcc82, as `npm run openapi` wrote it). */
const BEFORE = new URL('fixtures/openapi-public-4bfcc82.json.gz', import.meta.url);

/** Type-checks `client` against the types openapi-typescript generates from each document: each problem, with its line's [mark]. */
async function compile(documents: Record<string, string>, client: string): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'generated-client-'));
  for (const [name, text] of Object.entries(documents)) writeFileSync(join(dir, `${name}.ts`), astToString(await openapiTS(text)));
  writeFileSync(join(dir, 'client.ts'), client);
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
  const problems = ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.text.split('\n')[d.file.getLineAndCharacterOfPosition(d.start).line]! : '';
    const mark = /\[([\w -]+)\]$/.exec(line)?.[1] ?? '';
    return `${d.file?.fileName.replace(dir, '') ?? ''} [${mark}]: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
  rmSync(dir, { recursive: true, force: true });
  return problems;
}

const served = async (api: 'public' | 'chatbot') => (await overHttp(api)({ path: '/openapi.json' })).text;

describe('a client generated from the documents with openapi-typescript', () => {
  it('has named types for the main shapes and type-checks a small client', async () => {
    expect(await compile({ public: await served('public'), chatbot: await served('chatbot') }, CLIENT)).toEqual([]);
  }, 90_000);

  it("types an integrator's 10 operations: the 201 body and x-request-id, If-Match, enums (which the document before could not)", async () => {
    expect(await compile({ public: await served('public') }, TEN_OPERATIONS)).toEqual([]);
    const before = await compile({ public: gunzipSync(readFileSync(BEFORE)).toString() }, TEN_OPERATIONS);
    const marks = (mark: string) => before.filter((problem) => problem.includes(`[${mark}]`));
    expect(marks('201 body')).toEqual([expect.stringContaining("Property 'application/json' does not exist")]);
    expect(marks('x-request-id')).toEqual([
      expect.stringContaining("Argument of type 'unknown' is not assignable to parameter of type 'string'"),
    ]);
    expect(marks('If-Match')).toEqual(Array(2).fill(expect.stringMatching(/If-Match'+ does not exist/)));
    expect(marks('enum')).toEqual(Array(3).fill(expect.stringContaining("Unused '@ts-expect-error' directive")));
  }, 120_000);
});
