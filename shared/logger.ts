/** The invocation a line belongs to, where one process runs several functions at once. */
export interface RunningInvocation {
  functionName: string;
  invokedFunctionArn: string;
  awsRequestId: string;
}

/** What a line reads of the Lambda context (the structural part of aws-lambda's Context). */
export interface InvocationContext extends RunningInvocation {
  memoryLimitInMB: string;
}

let running: (() => RunningInvocation | undefined) | undefined;

/**
 * On Lambda a process runs one function, and the context each handler adds names it. The local stack runs every
 * function in one process, several at once, where the last context added would name every line: it tells the logger
 * which invocation is running instead (infra/local/invoke.ts).
 */
export function nameInvocationsBy(resolve: () => RunningInvocation | undefined): void {
  running = resolve;
}

const LEVELS = { TRACE: 6, DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, CRITICAL: 24, SILENT: 28 } as const;
export type LogLevel = keyof typeof LEVELS;
type Attributes = Record<string, unknown>;

const levelOf = (name: string | undefined): LogLevel | undefined => {
  const upper = name?.trim().toUpperCase();
  return upper && upper in LEVELS ? (upper as LogLevel) : undefined;
};

/**
 * The level as Powertools Logger chooses it: POWERTOOLS_LOG_LEVEL (or LOG_LEVEL), INFO by default, and never more
 * verbose than Lambda's own application log level (AWS_LAMBDA_LOG_LEVEL), which would drop the lines anyway.
 */
function initialLevel(): LogLevel {
  const chosen = levelOf(process.env.POWERTOOLS_LOG_LEVEL) ?? levelOf(process.env.LOG_LEVEL) ?? 'INFO';
  const lambda = levelOf(process.env.AWS_LAMBDA_LOG_LEVEL);
  return lambda && LEVELS[lambda] > LEVELS[chosen] ? lambda : chosen;
}

/** An error as Powertools Logger writes it: name, where it was thrown, message, stack, cause and its own fields. */
function formatError(error: Error): Attributes {
  const { name, message, stack, cause, ...own } = error as Error & Attributes;
  const at = stack?.split('\n').find((line) => /\(([^()]*?):(\d+?):(\d+?)\)\\?$/.test(line));
  const location = at ? at.replace(/^.*\(([^()]*?):(\d+?):\d+?\)\\?$/, '$1:$2') : '';
  return { name, location, message, stack, cause: cause instanceof Error ? formatError(cause) : cause, ...own };
}

/** JSON.stringify's replacer: errors formatted, bigints as text, a repeated (circular) object left out. */
function replacer(): (key: string, value: unknown) => unknown {
  const seen = new WeakSet<object>();
  return (_key, value) => {
    if (typeof value === 'bigint') return value.toString();
    if (value instanceof Error) value = formatError(value);
    if (typeof value === 'object' && value !== null) {
      if (seen.has(value)) return undefined;
      seen.add(value);
    }
    return value;
  };
}

/**
 * Structured JSON logs, one line each, with Powertools Logger's keys (level, message, timestamp, service, the Lambda
 * context's cold_start, function_arn, function_memory_size, function_name, function_request_id, and xray_trace_id),
 * then the keys appended and the line's own attributes. Our own, instead of Powertools Logger: its module made every
 * function's cold import about 5% slower (the cold-start benchmark), for options the service does not use. Lines go
 * to stdout (DEBUG, INFO) or stderr (WARN and above) directly, not through the console, which Lambda's runtime wraps.
 */
export class Logger {
  #level: LogLevel = initialLevel();
  #persistent: Attributes = {};
  #temporary: Attributes = {};
  #context: (InvocationContext & { coldStart: boolean }) | undefined;
  #coldStart = true;

  constructor(readonly serviceName: string) {}

  debug(message: string, ...extra: (Attributes | Error)[]): void {
    this.#write('DEBUG', message, extra);
  }
  info(message: string, ...extra: (Attributes | Error)[]): void {
    this.#write('INFO', message, extra);
  }
  warn(message: string, ...extra: (Attributes | Error)[]): void {
    this.#write('WARN', message, extra);
  }
  error(message: string, ...extra: (Attributes | Error)[]): void {
    this.#write('ERROR', message, extra);
  }
  critical(message: string, ...extra: (Attributes | Error)[]): void {
    this.#write('CRITICAL', message, extra);
  }

  /** Keys on every line of this invocation, until resetKeys (the HTTP wrappers reset them after each request). */
  appendKeys(attributes: Attributes): void {
    Object.assign(this.#temporary, attributes);
  }
  /** Keys on every line of the process. */
  appendPersistentKeys(attributes: Attributes): void {
    Object.assign(this.#persistent, attributes);
  }
  removeKeys(keys: string[]): void {
    for (const key of keys) delete this.#temporary[key];
  }
  resetKeys(): void {
    this.#temporary = {};
  }

  /** The invocation's Lambda context, which names the function and request on each line; the first is the cold start. */
  addContext(context: InvocationContext): void {
    const { functionName, invokedFunctionArn, awsRequestId, memoryLimitInMB } = context;
    this.#context = { functionName, invokedFunctionArn, awsRequestId, memoryLimitInMB, coldStart: this.#coldStart };
    this.#coldStart = false;
  }

  setLogLevel(level: LogLevel): void {
    this.#level = level;
  }
  getLevelName(): LogLevel {
    return this.#level;
  }

  #write(level: Exclude<LogLevel, 'SILENT'>, message: string, extra: (Attributes | Error)[]): void {
    if (LEVELS[level] < LEVELS[this.#level]) return;
    const context = this.#context && { ...this.#context, ...running?.() };
    const line: Attributes = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: this.serviceName,
      cold_start: context?.coldStart,
      function_arn: context?.invokedFunctionArn,
      function_memory_size: context?.memoryLimitInMB,
      function_name: context?.functionName,
      function_request_id: context?.awsRequestId,
      xray_trace_id: process.env._X_AMZN_TRACE_ID?.match(/Root=([^;]+)/)?.[1],
      ...this.#persistent,
      ...this.#temporary,
    };
    for (const attributes of extra) Object.assign(line, attributes instanceof Error ? { error: attributes } : attributes);
    for (const key of Object.keys(line)) if (line[key] === undefined || line[key] === null || line[key] === '') delete line[key];
    const text = `${JSON.stringify(line, replacer())}\n`;
    (LEVELS[level] >= LEVELS.WARN ? process.stderr : process.stdout).write(text);
  }
}

/** The service every line names. */
export const logger = new Logger('survey-service');

/** An error as a log line may show it: its class and the start of its message (SDK messages name no personal data). */
export const describeError = (error: unknown) =>
  error instanceof Error ? { name: error.name, message: error.message.slice(0, 300) } : { name: typeof error, message: '' };
