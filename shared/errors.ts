/**
 * Typed domain errors. Domain code throws these; `shared/http/problem.ts` is the one place that maps them to HTTP.
 * `kind` names the problem type; `status` is decided per route where the contract differs (400 vs 422).
 */
export interface FieldProblem {
  path: string;
  message: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ProblemKind,
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export type ProblemKind =
  | 'validation'
  | 'not-found'
  | 'conflict'
  | 'state-conflict'
  | 'unauthenticated'
  | 'forbidden'
  | 'unavailable'
  | 'concurrent-edit'
  | 'not-ready'
  | 'gone'
  | 'too-many'
  | 'precondition-failed'
  | 'precondition-required'
  | 'needs-user';

export class ValidationError extends DomainError {
  constructor(message: string, errors: FieldProblem[] = []) {
    super('validation', message, errors);
  }
}

export class NotFoundError extends DomainError {
  constructor(message: string) {
    super('not-found', message);
  }
}

/** A unique value (an external code) already belongs to another entity. */
export class DuplicateError extends DomainError {
  constructor(message: string, path: string) {
    super('conflict', message, [{ path, message }]);
  }

  /**
   * An external code already taken: the message names the field, never the code (a client_id may be a CPF, and an
   * error's message reaches logs).
   */
  static of(kind: string, field: string): DuplicateError {
    return new DuplicateError(`A ${kind} with this ${field} already exists.`, field);
  }
}

/** What was asked cannot be done to the thing in the state it is in (re-sending a delivery that is not failed). */
export class StateConflictError extends DomainError {
  constructor(message: string) {
    super('state-conflict', message);
  }
}

export class UnauthenticatedError extends DomainError {
  constructor(message = 'A valid API key is required.') {
    super('unauthenticated', message);
  }
}

/** A parameter names the caller's user (`owner=me`) and the request carries no user token: 400, naming it. */
export class NeedsUserError extends DomainError {
  constructor(parameter: string, value: string, how: string) {
    super('needs-user', `${parameter}=${value} needs a user's token (${how}).`, [
      { path: parameter, message: `${value} needs a user's token` },
    ]);
  }
}

/** A bound on what a tenant may have open at once is reached: ask again after `retryAfterSeconds`. */
export class TooManyError extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('too-many', message);
  }
}

/** What was asked for is being made: ask again shortly. */
export class NotReadyError extends DomainError {
  constructor(message: string) {
    super('not-ready', message);
  }
}

/** What was asked for existed and no longer does, for good (an expired export). */
export class GoneError extends DomainError {
  constructor(message: string) {
    super('gone', message);
  }
}

/**
 * Another request changed the same thing first (the same survey answer, the same employee's links): nothing of this
 * one was written; the client reads again and retries, or corrects.
 */
export class ConcurrentEditError extends DomainError {
  constructor(message: string) {
    super('concurrent-edit', message);
  }
}

/** Something the service needs (its table, the key check) cannot be reached now: retry after Retry-After. */
export class UnavailableError extends DomainError {
  constructor(message = 'The service is briefly unavailable. Retry after the number of seconds in Retry-After.') {
    super('unavailable', message);
  }
}

/** The user token does not cover what the request changes. */
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super('forbidden', message);
  }
}

/** A conditional change whose condition (If-Match) no longer holds: someone changed it since the caller read it. */
export class PreconditionFailedError extends DomainError {
  constructor(message: string) {
    super('precondition-failed', message);
  }
}

/** A change that must be conditional (If-Match) came without its condition. */
export class PreconditionRequiredError extends DomainError {
  constructor(message: string) {
    super('precondition-required', message);
  }
}
