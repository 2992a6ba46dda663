import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { ApplicationLogLevel, Architecture, LoggingFormat, Runtime, SystemLogLevel } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Bundling exactly as deployed; the benchmarks bundle with these same options. */
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
  'node:stream/web': STREAM_WEB_SHIM,
  'libphonenumber-js/core': PHONE_PARSER,
};

export const BUNDLING: BundlingOptions = {
  format: OutputFormat.ESM,
  target: 'node24',
  mainFields: ['module', 'main'],
  // Neither minified nor source-mapped. Node's --enable-source-maps, which a minified bundle needs for readable
  // stack traces, made a function's import 43% slower here (121 ms against 85, median of 21); unminified, a stack
  // trace reads as it is, each module's code sitting under a comment naming its source file.
  minify: false,
  sourceMap: false,
  // Bundling the SDK cold-starts faster than loading the runtime's copy, and pins the version we test.
  bundleAwsSDK: true,
  // ESM bundles of CommonJS dependencies need `require`.
  banner: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  // Middy's import of web streams, which no function uses, answered without loading them (infra/bundling/stream-web.ts);
  // the phone parser from the library's source (PHONE_PARSER).
  esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([module, path]) => [`--alias:${module}`, path])),
};

export interface ServiceFunctionProps {
  /** Module under functions/ exporting `handler`. */
  handler: string;
  description: string;
  logRetention: RetentionDays;
  environment?: Record<string, string>;
  memorySize?: number;
  timeout?: Duration;
  reservedConcurrentExecutions?: number;
  /** A directory of files the function reads, copied beside its bundle under this name (`[directory, name]`). */
  files?: readonly [string, string];
}

/**
 * Lambda's own lines (START, END, REPORT: about 300 bytes an invocation, most of the service's log bill at INFO) are
 * left out: the system log level is WARN, so only the platform's warnings (a timeout, a crash) are kept. Duration,
 * errors and throttles stay in CloudWatch metrics. Set INFO here to have the REPORT lines back.
 */
export const SYSTEM_LOG_LEVEL = SystemLogLevel.WARN;

/** The environment every function starts with (the benchmarks import bundles with it too). */
export const FUNCTION_ENVIRONMENT: Record<string, string> = { POWERTOOLS_LOG_LEVEL: 'INFO' };

/**
 * Every Lambda of the service: Node 24 on arm64, an ESM bundle, its own log group with retention, JSON logs. Its role
 * starts empty: no AWSLambdaBasicExecutionRole (whose logs actions are on `*`, every log group of the account); the
 * stack adds the function's statements of infra/grants.ts, among them the writing of its own log group only.
 */
export class ServiceFunction extends NodejsFunction {
  /** The function's own log group, the only one its role may write to. */
  readonly ownLogGroup: LogGroup;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const logGroup = new LogGroup(scope, `${id}Logs`, { retention: props.logRetention, removalPolicy: RemovalPolicy.DESTROY });
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `The execution role of ${id}: its statements of infra/grants.ts, nothing else`,
    });
    super(scope, id, {
      role,
      entry: `${ROOT}functions/${props.handler}`,
      handler: 'handler',
      projectRoot: ROOT,
      depsLockFilePath: `${ROOT}package-lock.json`,
      runtime: Runtime.NODEJS_24_X,
      architecture: Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      ...(props.reservedConcurrentExecutions ? { reservedConcurrentExecutions: props.reservedConcurrentExecutions } : {}),
      description: props.description,
      logGroup,
      // JSON logs: Lambda filters them by level (the application's at INFO, as POWERTOOLS_LOG_LEVEL).
      loggingFormat: LoggingFormat.JSON,
      systemLogLevelV2: SYSTEM_LOG_LEVEL,
      applicationLogLevelV2: ApplicationLogLevel.INFO,
      bundling: props.files
        ? {
            ...BUNDLING,
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_input: string, output: string) => [`cp -R "${props.files![0]}" "${output}/${props.files![1]}"`],
            },
          }
        : BUNDLING,
      environment: { ...FUNCTION_ENVIRONMENT, ...props.environment },
    });
    this.ownLogGroup = logGroup;
  }
}
