import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSync, version as esbuildVersion, type BuildOptions } from 'esbuild';
import { authorizers, consumers, reference, routes, scheduled, sessionAuthorizer, workspaceRoutes } from '../routes.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The module that stands for `node:stream/web` in a bundle, from the project's root. */
export const STREAM_WEB_SHIM = './infra/bundling/stream-web.ts';

/**
 * What a bundle gets for `libphonenumber-js/core`, whose default export is the one function shared/customers/phone.ts
 * takes from it: the same function in the library's own untranspiled source, which the package ships beside its
 * transpiled `es6/` build. The transpiled build repeats Babel's helpers in every one of its modules: 86 KB against
 * 61 KB of code, 2.4 ms of CPU to import against 1.5 (median of 21). test/unit/phone.test.ts checks this bundle's
 * answers against the library's on 30,000 numbers; a named import from `libphonenumber-js/core` fails the build.
 */
export const PHONE_PARSER = './node_modules/libphonenumber-js/source/parsePhoneNumber.js';

/** Modules a bundle takes in place of others (from the project's root, the bundler's working directory). */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  // Middy's import of web streams, which no function uses, answered without loading them (stream-web.ts).
  'node:stream/web': STREAM_WEB_SHIM,
  'libphonenumber-js/core': PHONE_PARSER,
};

/**
 * How every function is bundled, as deployed: an ESM bundle for Node 24 holding the AWS SDK (bundled, it cold-starts
 * faster than the runtime's copy, and it is the version we test). Neither minified nor source-mapped: Node's
 * --enable-source-maps, which a minified bundle needs for readable stack traces, made a function's import 43% slower
 * here (121 ms against 85, median of 21); unminified, a stack trace reads as it is, each module's code sitting under a
 * comment naming its source file.
 */
export const BUILD_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  mainFields: ['module', 'main'],
  minify: false,
  sourcemap: false,
  // ESM bundles of CommonJS dependencies need `require`.
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  alias: { ...BUNDLE_ALIASES },
  absWorkingDir: ROOT,
  logLevel: 'silent',
};

/** Every function the stack deploys, by name, with its module under functions/ (the SES events function included). */
export const functionEntries = (): [string, { handler: string }][] => [
  ...[...routes, ...workspaceRoutes].map((r): [string, { handler: string }] => [r.operationId, { handler: r.handler }]),
  ...consumers.map((c): [string, { handler: string }] => [c.id, { handler: c.handler }]),
  ...scheduled.map((j): [string, { handler: string }] => [j.id, { handler: j.handler }]),
  ...Object.entries(authorizers).map(([api, a]): [string, { handler: string }] => [`${api}Authorizer`, { handler: a.handler }]),
  [sessionAuthorizer.id, { handler: sessionAuthorizer.handler }],
  ['sesEvents', { handler: 'queue/ses-events.ts' }],
  ['reference', { handler: reference.handler }],
];

/** One function's bundle: its file, and every file (node_modules included) it holds code of. */
export interface FunctionBundle {
  file: string;
  inputs: string[];
}

const CACHE = `${ROOT}node_modules/.cache/function-bundles/`;
/** What a bundle is built from: its sources, the dependencies' lock, and the options and bundler above. */
const SOURCES = ['functions', 'shared', 'infra', 'package-lock.json', 'tsconfig.json'];
/** Bundle sets kept besides the newest, for a tree switched back and forth between two commits. */
const KEPT = 2;

/** A key of the whole tree the bundles are built from: one hash of every source file's path and content. */
function sourceKey(): string {
  const hash = createHash('sha256').update(`${esbuildVersion}\n${JSON.stringify(BUILD_OPTIONS)}\n`);
  for (const source of SOURCES) {
    const files = statSync(`${ROOT}${source}`).isDirectory()
      ? readdirSync(`${ROOT}${source}`, { recursive: true, encoding: 'utf8' })
          .map((file) => `${source}/${file}`)
          .sort()
      : [source];
    for (const file of files) {
      if (!statSync(`${ROOT}${file}`).isFile()) continue;
      hash.update(`${file}\n`).update(readFileSync(`${ROOT}${file}`));
    }
  }
  return hash.digest('hex').slice(0, 16);
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** The output path of a handler's bundle, under a bundle set's directory. */
const outOf = (handler: string) => handler.replace(/\.ts$/, '');

/** Builds every function in one esbuild build into `dir` (through a directory beside it, renamed when whole). */
function buildInto(dir: string): void {
  const staging = `${dir}.${process.pid}.tmp`;
  rmSync(staging, { recursive: true, force: true });
  const handlers = [...new Set(functionEntries().map(([, { handler }]) => handler))];
  const { metafile } = buildSync({
    ...BUILD_OPTIONS,
    entryPoints: handlers.map((handler) => ({ in: `${ROOT}functions/${handler}`, out: `${outOf(handler)}/index` })),
    outdir: staging,
    outExtension: { '.js': '.mjs' },
    metafile: true,
  });
  const inputs = Object.fromEntries(
    handlers.map((handler) => {
      const output = metafile.outputs[`${staging.slice(ROOT.length)}/${outOf(handler)}/index.mjs`]!;
      return [handler, Object.keys(output.inputs).filter((input) => output.inputs[input]!.bytesInOutput > 0)];
    }),
  );
  writeFileSync(`${staging}/inputs.json`, JSON.stringify(inputs));
  renameSync(staging, dir);
  // The older sets, past the few kept.
  const sets = readdirSync(CACHE)
    .filter((name) => /^[0-9a-f]{16}$/.test(name) && `${CACHE}${name}` !== dir)
    .map((name) => ({ path: `${CACHE}${name}`, at: statSync(`${CACHE}${name}`).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { path } of sets.slice(KEPT)) rmSync(path, { recursive: true, force: true });
}

let built: { dir: string; inputs: Record<string, string[]> } | undefined;

/**
 * Every function's bundle, from ONE esbuild build of all their entry points, kept on disk by a hash of what they are
 * built from. esbuild then reads and parses each module once for all functions: 86 s against 339 s for a build each
 * (113 functions, a loaded machine), the files byte for byte the same. `cdk synth`, the bundle tests and the
 * benchmarks of one tree share the one build, whichever process asks first (the others wait for it: a lock
 * directory naming its process, taken over if that process died).
 */
export function functionBundles(): { dir: string; inputs: Record<string, string[]> } {
  if (built) return built;
  mkdirSync(CACHE, { recursive: true });
  const dir = `${CACHE}${sourceKey()}`;
  const lock = `${dir}.lock`;
  while (!existsSync(dir)) {
    try {
      mkdirSync(lock);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let owner = 0;
      try {
        owner = Number(readFileSync(`${lock}/pid`, 'utf8'));
      } catch {
        // Not written yet, or the lock is gone: look again.
      }
      if (owner && !alive(owner)) rmSync(lock, { recursive: true, force: true });
      else sleep(200);
      continue;
    }
    try {
      writeFileSync(`${lock}/pid`, String(process.pid));
      if (!existsSync(dir)) buildInto(dir);
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
  built = { dir, inputs: JSON.parse(readFileSync(`${dir}/inputs.json`, 'utf8')) as Record<string, string[]> };
  return built;
}

/** The directory of a handler's bundle (`index.mjs`), as the stack deploys it. */
export function bundleDirOf(handler: string): string {
  const { dir, inputs } = functionBundles();
  if (!inputs[handler]) throw new Error(`functions/${handler} is no function of functionEntries (infra/bundling/bundles.ts).`);
  return `${dir}/${outOf(handler)}`;
}

/** A function's bundle by its name in functionEntries. */
export function bundleOf(name: string): FunctionBundle {
  const entry = functionEntries().find(([entryName]) => entryName === name);
  if (!entry) throw new Error(`No function ${name}`);
  const { handler } = entry[1];
  return { file: `${bundleDirOf(handler)}/index.mjs`, inputs: functionBundles().inputs[handler]! };
}

/** The bundle's text. */
export const bundleText = (name: string): string => readFileSync(bundleOf(name).file, 'utf8');

/** The project's own files (not node_modules) a function's bundle holds code of. */
export const bundledSources = (name: string): string[] => bundleOf(name).inputs.filter((input) => !input.includes('node_modules/'));
