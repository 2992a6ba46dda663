/**
 * Whether an AWS call failed because the service is throttling, overloaded or unreachable: worth a retry later
 * (503 with Retry-After), unlike a bug or a refused request.
 */
const RETRYABLE_NAMES = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'InternalServerError',
  'InternalServerErrorException',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'KMSThrottlingException',
  'AWS.SimpleQueueService.RequestThrottled',
  'RequestThrottled',
]);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function isUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const { code, $metadata, $retryable } = error as { code?: string; $metadata?: { httpStatusCode?: number }; $retryable?: unknown };
  if (RETRYABLE_NAMES.has(error.name) || (code !== undefined && NETWORK_CODES.has(code)) || $retryable) return true;
  if (($metadata?.httpStatusCode ?? 0) >= 500) return true;
  // An AggregateError (several addresses refused) or an error that wraps the network failure.
  const causes = [(error as { cause?: unknown }).cause, ...((error as { errors?: unknown[] }).errors ?? [])];
  return causes.some((cause) => cause !== error && isUnavailable(cause));
}
