import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLING, FUNCTION_ENVIRONMENT } from '../infra/constructs/service-function.js';
import { authorizers, consumers, reference, routes, scheduled } from '../infra/routes.js';

/**
 * Cold-start proxy: every function bundled with the stack's own bundling options, its size, and the time a fresh
 * `node` takes to import it and run its module-level code (median of 21), beside a floor bundle that imports only
 * the DynamoDB document client.
 */
const ROOT = fileURLToPath(new URL('../', import.meta.url));
const OUT = `${ROOT}bench/.bundles/`;

const FLOOR_SOURCE = `import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
export const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async () => client;
`;

/** Every function the stack deploys, by name, with its entry file (the SES events function included). */
export const functionEntries = (): [string, { file: string }][] => [
  ...routes.map((r): [string, { file: string }] => [r.operationId, { file: `${ROOT}functions/${r.handler}` }]),
  ...consumers.map((c): [string, { file: string }] => [c.id, { file: `${ROOT}functions/${c.handler}` }]),
  ...scheduled.map((j): [string, { file: string }] => [j.id, { file: `${ROOT}functions/${j.handler}` }]),
  ...Object.entries(authorizers).map(([api, a]): [string, { file: string }] => [
    `${api}Authorizer`,
    { file: `${ROOT}functions/${a.handler}` },
  ]),
  ['sesEvents', { file: `${ROOT}functions/queue/ses-events.ts` }],
  ['reference', { file: `${ROOT}functions/${reference.handler}` }],
];

/** Bundles one entry with the stack's own options (into bench/.bundles/<name>/, or under `out`). */
export async function bundle(name: string, entry: { file: string } | { source: string }, out = OUT): Promise<string> {
  const outfile = `${out}${name}/index.mjs`;
  await build({
    ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.source, resolveDir: ROOT, loader: 'ts' } }),
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: BUNDLING.target,
    mainFields: BUNDLING.mainFields,
    minify: BUNDLING.minify,
    sourcemap: BUNDLING.sourceMap,
    banner: { js: BUNDLING.banner! },
    logLevel: 'silent',
  });
  return outfile;
}

function importMs(file: string): number {
  const script = `const t = performance.now(); await import(${JSON.stringify(file)}); process.stdout.write(String(performance.now() - t));`;
  const env = {
    ...process.env,
    ...FUNCTION_ENVIRONMENT,
    TABLE_NAME: 'bench',
    REQUEST_ID_SECRET: 'bench',
    CURSOR_SECRET: 'bench',
    TRANSACTION_QUEUE_URL: 'http://localhost/bench-transactions',
    SURVEY_DISPATCH_QUEUE_URL: 'http://localhost/bench-dispatch',
    SURVEY_SECRET: 'bench',
    SURVEY_BASE_URL: 'http://localhost',
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env }));
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export interface ColdStartOptions {
  /** Fresh processes per function; the median is reported. */
  runs: number;
  /** Only these functions (and the floor); all when absent. */
  only?: string[];
}

export async function coldStart({ runs, only }: ColdStartOptions): Promise<string> {
  mkdirSync(OUT, { recursive: true });
  const entries: [string, { file: string } | { source: string }][] = [
    ['floor: DynamoDB document client only', { source: FLOOR_SOURCE }],
    ...functionEntries(),
  ];
  const chosen = entries.filter(([name], i) => i === 0 || !only || only.includes(name));
  const files = await Promise.all(chosen.map(([name, entry], i) => bundle(`f${i}`, entry).then((file) => ({ name, file }))));
  // Interleave the runs so that drift of the machine affects every function alike.
  const times = files.map(() => [] as number[]);
  for (let run = 0; run < runs; run++) files.forEach(({ file }, i) => times[i]!.push(importMs(file)));

  const floor = { size: readFileSync(files[0]!.file).length, ms: median(times[0]!) };
  const rows = files.map(({ name, file }, i) => {
    const raw = readFileSync(file);
    const ms = median(times[i]!);
    return `| ${name} | ${(raw.length / 1024).toFixed(0)} | ${(gzipSync(raw).length / 1024).toFixed(0)} | ${(raw.length / floor.size).toFixed(2)} | ${ms.toFixed(1)} | ${(ms / floor.ms).toFixed(2)} |`;
  });
  return [
    `### Cold-start proxy (bundles as deployed; import time median of ${runs} fresh node processes, ${process.version})`,
    '',
    '| function | bundle KiB | gzip KiB | size ÷ floor | import ms | import ÷ floor |',
    '|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    'Targets: import ÷ floor at most 1.2; size ÷ floor at most 2.',
  ].join('\n');
}
