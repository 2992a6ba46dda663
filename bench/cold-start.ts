import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { FUNCTION_ENVIRONMENT } from '../infra/constructs/service-function.js';
import { BUILD_OPTIONS, functionEntries } from '../infra/bundling/bundles.js';
import { startSecretsServer } from '../infra/local/secrets.js';
import { ENV, secretArnVariable } from '../shared/config.js';

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

/** The SDK clients a function may make, by package, with the class its floor makes. */
const CLIENTS: Record<string, string> = {
  '@aws-sdk/client-sqs': 'SQSClient',
  '@aws-sdk/client-sesv2': 'SESv2Client',
  '@aws-sdk/client-pinpoint-sms-voice-v2': 'PinpointSMSVoiceV2Client',
  '@aws-sdk/client-socialmessaging': 'SocialMessagingClient',
  '@aws-sdk/client-secrets-manager': 'SecretsManagerClient',
  '@aws-sdk/client-s3': 'S3Client',
  '@aws-sdk/client-cognito-identity-provider': 'CognitoIdentityProviderClient',
  '@aws-sdk/client-lambda': 'LambdaClient',
  '@aws-sdk/client-comprehend': 'ComprehendClient',
};

/** A floor that makes the document client and each of `clients` (packages), and nothing else. */
const floorSource = (clients: string[]) =>
  FLOOR_SOURCE +
  clients.map((pkg, i) => `import { ${CLIENTS[pkg]} as C${i} } from '${pkg}';\nexport const client${i} = new C${i}({});\n`).join('');

/** The stack's own bundling options for one entry. */
const buildOptions = (entry: { file: string } | { source: string }): BuildOptions => ({
  ...('file' in entry ? { entryPoints: [entry.file] } : { stdin: { contents: entry.source, resolveDir: ROOT, loader: 'ts' } }),
  ...BUILD_OPTIONS,
});

/** Bundles one entry with the stack's own options (into bench/.bundles/<name>/, or under `out`). */
export async function bundle(name: string, entry: { file: string } | { source: string }, out = OUT): Promise<string> {
  return (await bundled(name, entry, out)).file;
}

/** A bundle's file and the SDK clients (packages beside DynamoDB's) that went into it. */
async function bundled(name: string, entry: { file: string } | { source: string }, out = OUT) {
  const outfile = `${out}${name}/index.mjs`;
  const { metafile } = await build({ ...buildOptions(entry), outfile, metafile: true });
  // What the bundle holds code of: a client package a wiring module imports for a composition the function never uses
  // is read by the bundler, and dropped.
  const [output] = Object.values(metafile.outputs);
  const inputs = Object.entries(output!.inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([input]) => input)
    .join('\n');
  // A client the map lacks would count as our code: the map must name it for the floor to make it.
  const unknown = [...new Set(inputs.match(/node_modules\/@aws-sdk\/client-[\w-]+\//g))]
    .map((path) => path.slice('node_modules/'.length, -1))
    .filter((pkg) => pkg !== '@aws-sdk/client-dynamodb' && !CLIENTS[pkg]);
  if (unknown.length)
    throw new Error(
      `${'file' in entry ? entry.file : name} holds ${unknown.join(', ')}: name its client class in CLIENTS (bench/cold-start.ts).`,
    );
  return {
    file: outfile,
    dynamoDb: inputs.includes('node_modules/@aws-sdk/client-dynamodb/'),
    clients: Object.keys(CLIENTS).filter((pkg) => inputs.includes(`node_modules/${pkg}/`)),
  };
}

/** One fresh process's import of a bundle: its wall time and the CPU time it took (every thread of the process). */
interface Import {
  wall: number;
  cpu: number;
}

function importTimes(file: string, extra: Record<string, string> = {}): Import {
  return JSON.parse(execFileSync(process.execPath, ...importCommand(file, extra))) as Import;
}

/** The wall time, without blocking this process (which may be serving the import a secret). */
const importMsAsync = async (file: string, extra: Record<string, string> = {}): Promise<number> =>
  (JSON.parse((await promisify(execFile)(process.execPath, ...importCommand(file, extra))).stdout) as Import).wall;

function importCommand(
  file: string,
  extra: Record<string, string>,
): [string[], { env: Record<string, string | undefined>; encoding: 'utf8' }] {
  const script = `const t = performance.now(), c = process.cpuUsage(); await import(${JSON.stringify(file)});
const d = process.cpuUsage(c); process.stdout.write(JSON.stringify({ wall: performance.now() - t, cpu: (d.user + d.system) / 1000 }));`;
  const env: Record<string, string | undefined> = {
    ...process.env,
    ...FUNCTION_ENVIRONMENT,
    TABLE_NAME: 'bench',
    // The values themselves: the import is measured without the secrets' read (the cold-start table measures that apart).
    REQUEST_ID_SECRET: 'bench',
    CURSOR_SECRET: 'bench',
    TRANSACTION_QUEUE_URL: 'http://localhost/bench-transactions',
    SURVEY_DISPATCH_QUEUE_URL: 'http://localhost/bench-dispatch',
    SURVEY_SECRET: 'bench',
    SURVEY_BASE_URL: 'http://localhost',
    AWS_REGION: 'us-east-1',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    ...extra,
  };
  for (const [name, value] of Object.entries(extra)) if (value === '') delete env[name];
  return [['--input-type=module', '-e', script], { env, encoding: 'utf8' }];
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
    ...functionEntries().map(([name, { handler }]): [string, { file: string }] => [name, { file: `${ROOT}functions/${handler}` }]),
  ];
  const chosen = entries.filter(([name], i) => i === 0 || !only || only.includes(name));
  const functions = await Promise.all(chosen.map(([name, entry], i) => bundled(`f${i}`, entry).then((b) => ({ name, ...b }))));
  // Each function's own floor: the document client and the other SDK clients its bundle holds, nothing of ours.
  const floorKeys = [
    ...new Set(
      functions
        .slice(1)
        .map((f) => f.clients.join(' '))
        .filter(Boolean),
    ),
  ];
  const floors = await Promise.all(floorKeys.map((key, i) => bundle(`floor${i}`, { source: floorSource(key.split(' ')) })));
  const files = [...functions.map((f) => f.file), ...floors];
  // Interleave the runs so that drift of the machine affects every bundle alike.
  const imports = files.map(() => [] as Import[]);
  for (let run = 0; run < runs; run++) files.forEach((file, i) => imports[i]!.push(importTimes(file)));
  // The ratios are of CPU time: on this shared machine the wall time also counts the waits for a core, which other
  // work decides (the median ratio moved by ±0.05 between runs at a load of 8, more at 20); the CPU time is the work
  // the import does, which a function pays on Lambda at its share of a core.
  const times = imports.map((runs) => runs.map((one) => one.cpu));

  // Each run's import over a floor's in the same run (they ran moments apart): the machine's drift, which moves
  // both, cancels out of the ratio.
  const ratio = (i: number, floor: number) => median(times[i]!.map((ms, run) => ms / times[floor]![run]!));
  const floorOf = (clients: string[]) => (clients.length ? functions.length + floorKeys.indexOf(clients.join(' ')) : 0);
  const floorSize = readFileSync(files[0]!).length;
  const rows = functions.map(({ name, file, dynamoDb, clients }, i) => {
    const raw = readFileSync(file);
    // A function without the SDK (the reference documents) has no floor of its own: it is under any.
    const [ownFloor, ownRatio] =
      i === 0
        ? ['', '']
        : !dynamoDb
          ? ['no SDK', '–']
          : [clients.length ? `+ ${clients.map((pkg) => CLIENTS[pkg]).join(', ')}` : 'the same', ratio(i, floorOf(clients)).toFixed(2)];
    return `| ${name} | ${(raw.length / 1024).toFixed(0)} | ${(gzipSync(raw).length / 1024).toFixed(0)} | ${(raw.length / floorSize).toFixed(2)} | ${median(times[i]!).toFixed(1)} | ${ratio(i, 0).toFixed(2)} | ${ownFloor} | ${ownRatio} | ${median(imports[i]!.map((one) => one.wall)).toFixed(1)} |`;
  });
  return [
    await secretsAtColdStart(functions.find((f) => f.name === 'getSurveyPage')?.file, runs),
    '',
    `### Cold-start proxy (bundles as deployed; the import's CPU time, median of ${runs} fresh node processes, ${process.version}; import ÷ floor is the median of each run's ratio)`,
    '',
    '| function | bundle KiB | gzip KiB | size ÷ floor | import CPU ms | import ÷ floor | its own floor: the document client | import ÷ own floor | import wall ms |',
    '|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows,
    '',
    "The floor is a bundle that makes only the DynamoDB document client; a function's own floor also makes the other SDK",
    'clients its bundle holds (SQS, SES, SMS, WhatsApp, S3, Cognito, Secrets Manager), so that its ratio is what our code',
    'and libraries add to what the AWS SDK costs anyway. The ratios are of CPU time (user and system, every thread of the',
    'process): the wall time, in the last column, also counts the waits for a core on a shared machine. Targets: import ÷',
    'own floor at most 1.2; size ÷ floor at most 2.',
  ].join('\n');
}

/**
 * What reading a secret at cold start costs: the same bundle imported with its secret's value in the environment (the
 * floor: as before secrets moved out of the configuration) and with only its ARN, read from Secrets Manager through
 * Powertools Parameters (here the local stand-in on loopback: AWS adds its in-region round trip, typically 10-30 ms).
 */
async function secretsAtColdStart(file: string | undefined, runs: number): Promise<string> {
  if (!file) return '';
  const secrets = await startSecretsServer({ port: 0 });
  try {
    const withArn = {
      SURVEY_SECRET: '',
      [secretArnVariable(ENV.surveySecret)]: secrets.arns.surveyLinks,
      AWS_ENDPOINT_URL_SECRETS_MANAGER: secrets.endpoint,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
    };
    const given: number[] = [];
    const read: number[] = [];
    for (let run = 0; run < runs; run++) {
      given.push(await importMsAsync(file));
      read.push(await importMsAsync(file, withArn));
    }
    const ratio = median(read.map((ms, i) => ms / given[i]!));
    return [
      `### Secrets at cold start (getSurveyPage's bundle, median of ${runs} fresh node processes each)`,
      '',
      '| the survey secret | import ms | ÷ floor |',
      '|---|---:|---:|',
      `| floor: its value in the environment (before) | ${median(given).toFixed(1)} | 1.00 |`,
      `| its ARN, read from Secrets Manager at load (now) | ${median(read).toFixed(1)} | ${ratio.toFixed(2)} |`,
      '',
      `The read adds ${(median(read) - median(given)).toFixed(1)} ms here (one GetSecretValue on loopback, and Powertools Parameters`,
      "with the Secrets Manager client); on AWS add the service's in-region round trip. It is paid once per container, never per request.",
    ].join('\n');
  } finally {
    await secrets.stop();
  }
}
