import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { FieldProblem, ProblemKind } from '../errors.js';

/** Problems of the HTTP transport itself, before any domain code runs: the body's size, media type and syntax. */
export type TransportKind = 'malformed-json' | 'payload-too-large' | 'unsupported-media-type';

export class TransportError extends Error {
  constructor(
    readonly kind: TransportKind,
    message: string,
  ) {
    super(message);
    this.name = 'TransportError';
  }
}

/** RFC 9457 problem details. `type` is a relative URI naming the problem; its title is fixed per type. */
export const PROBLEMS: Record<ProblemKind | TransportKind | 'internal', { status: number; title: string }> = {
  validation: { status: 400, title: 'Invalid parameters' },
  'malformed-json': { status: 400, title: 'Malformed JSON body' },
  conflict: { status: 400, title: 'Already exists' },
  'needs-user': { status: 400, title: 'Needs a user token' },
  'not-found': { status: 404, title: 'Not found' },
  'concurrent-edit': { status: 409, title: 'Edited concurrently' },
  'state-conflict': { status: 409, title: 'Not in the state this needs' },
  'not-ready': { status: 409, title: 'Not ready' },
  gone: { status: 410, title: 'Gone' },
  unauthenticated: { status: 401, title: 'Unauthorized' },
  forbidden: { status: 401, title: 'Not authorized for this change' },
  'precondition-failed': { status: 412, title: 'Changed since read' },
  'payload-too-large': { status: 413, title: 'Body too large' },
  'precondition-required': { status: 428, title: 'If-Match required' },
  'too-many': { status: 429, title: 'Too many requests' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  internal: { status: 500, title: 'Internal error' },
  unavailable: { status: 503, title: 'Service unavailable' },
};
export type ProblemType = keyof typeof PROBLEMS;

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors?: FieldProblem[];
}

export function problem({
  type,
  detail,
  errors = [],
  status = PROBLEMS[type].status,
}: {
  type: ProblemType;
  detail: string;
  errors?: FieldProblem[];
  status?: number;
}): Problem {
  return { type: `/problems/${type}`, title: PROBLEMS[type].title, status, detail, ...(errors.length ? { errors } : {}) };
}

/** Seconds a client should wait before retrying a 503. */
export const RETRY_AFTER_SECONDS = 5;

/**
 * The headers of every API answer, success or problem: no cache (shared, or the browser's) keeps what may be personal
 * data, and no browser reads it as anything but what its content type says. A route meant to be cached sets its own
 * cache-control over this.
 */
export const API_HEADERS = { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } as const;

export function problemResponse(body: Problem, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: body.status,
    headers: {
      ...API_HEADERS,
      ...headers,
      'content-type': 'application/problem+json',
      ...(body.status === 503 ? { 'retry-after': String(RETRY_AFTER_SECONDS) } : {}),
    },
    body: JSON.stringify(body),
  };
}
