import * as v from 'valibot';
import { LogFormatter, Logger, LogItem } from '@aws-lambda-powertools/logger';
import type { LogAttributes, UnformattedAttributes } from '@aws-lambda-powertools/logger/types';

/** The invocation a line belongs to, where one process runs several functions at once. */
export interface RunningInvocation {
  functionName: string;
  invokedFunctionArn: string;
  awsRequestId: string;
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

/** Powertools' own line (its default formatter's keys), naming the running invocation where one is told. */
class InvocationFormatter extends LogFormatter {
  formatAttributes(attributes: UnformattedAttributes, additional: LogAttributes): LogItem {
    const context = attributes.lambdaContext && { ...attributes.lambdaContext, ...running?.() };
    return new LogItem({
      attributes: {
        level: attributes.logLevel,
        message: attributes.message,
        timestamp: this.formatTimestamp(attributes.timestamp),
        service: attributes.serviceName,
        cold_start: context?.coldStart,
        function_arn: context?.invokedFunctionArn,
        function_memory_size: context?.memoryLimitInMB,
        function_name: context?.functionName,
        function_request_id: context?.awsRequestId,
        sampling_rate: attributes.sampleRateValue,
        xray_trace_id: attributes.xRayTraceId,
      },
    }).addAttributes(additional);
  }
}

/**
 * Structured JSON logs. Every line carries the function (the operation), and the HTTP wrapper adds the request id
 * and tenant. Events are never logged whole: they carry keys, tokens and personal data.
 */
export const logger = new Logger({ serviceName: 'survey-service', logFormatter: new InvocationFormatter() });

/**
 * What a log line may say of a message that is not JSON, or not its queue's shape (`undefined` for other errors):
 * where it is wrong, never a value of it. JSON.parse's own message quotes the text it read, and valibot's the value it
 * received: a message's text carries contacts, URLs and ids.
 */
export function malformedReason(error: unknown): string | undefined {
  if (error instanceof SyntaxError) return 'not JSON';
  if (!v.isValiError(error)) return undefined;
  return error.issues.map((issue) => `${v.getDotPath(issue) ?? 'message'}: expected ${issue.expected ?? issue.type}`).join('; ');
}

/**
 * An error as a log line may show it: its class and the start of its message (SDK messages name no personal data); a
 * malformed message's, where it is wrong only.
 */
export const describeError = (error: unknown) =>
  error instanceof Error
    ? { name: error.name, message: malformedReason(error) ?? error.message.slice(0, 300) }
    : { name: typeof error, message: '' };
