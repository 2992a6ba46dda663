import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import {
  ApplicationLogLevel,
  Architecture,
  Code,
  Function as LambdaFunction,
  LoggingFormat,
  Runtime,
  SystemLogLevel,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, type RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import { bundleDirOf } from '../bundling/bundles.js';

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
 * The directory a function's code is deployed from: its bundle of the one build of every function
 * (infra/bundling/bundles.ts), with its `files` beside it; an empty directory where the stack is synthesised without
 * bundling (the context `aws:cdk:bundling-stacks`, as the infra tests set it to `[]`).
 */
let unbundled: string | undefined;

/**
 * Where this process puts the directories it makes: one temporary directory, removed when the process ends (the
 * synthesis has copied each asset into the cloud assembly by then), so that no `cdk synth` leaves one behind.
 */
let staging: string | undefined;
function stagingDir(): string {
  if (!staging) {
    staging = mkdtempSync(join(tmpdir(), 'survey-service-code-'));
    process.once('exit', removeStagedCode);
  }
  return staging;
}

/** Removes the directories this process made for its functions' code (a process that synthesises and goes on: the tests). */
export function removeStagedCode(): void {
  if (staging) rmSync(staging, { recursive: true, force: true });
  staging = unbundled = undefined;
}

function codeOf(scope: Construct, props: ServiceFunctionProps): string {
  if (!Stack.of(scope).bundlingRequired) return (unbundled ??= mkdtempSync(join(stagingDir(), 'unbundled-')));
  const bundle = bundleDirOf(props.handler);
  if (!props.files) return bundle;
  const dir = mkdtempSync(join(stagingDir(), 'function-'));
  cpSync(bundle, dir, { recursive: true });
  mkdirSync(join(dir, props.files[1]), { recursive: true });
  cpSync(props.files[0], join(dir, props.files[1]), { recursive: true });
  return dir;
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
 * Every Lambda of the service: Node 24 on arm64, an ESM bundle (one build for all: infra/bundling/bundles.ts), its
 * own log group with retention, JSON logs. Its role starts empty: no AWSLambdaBasicExecutionRole (whose logs actions
 * are on `*`, every log group of the account); the stack adds the function's statements of infra/grants.ts, among
 * them the writing of its own log group only.
 */
export class ServiceFunction extends LambdaFunction {
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
      code: Code.fromAsset(codeOf(scope, props)),
      handler: 'index.handler',
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
      environment: { ...FUNCTION_ENVIRONMENT, ...props.environment },
    });
    this.ownLogGroup = logGroup;
  }
}
