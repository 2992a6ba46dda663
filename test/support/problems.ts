import { expect } from 'vitest';
import { DomainError, type FieldProblem } from '../../shared/errors.js';

/**
 * What a caller learns of a refusal: its problem type (shared/http/problem.ts; each route sets its own status for it),
 * its message and the fields it names.
 */
export async function refusal(action: Promise<unknown>): Promise<{ kind: DomainError['kind']; errors: FieldProblem[]; message: string }> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the action was refused').toBeInstanceOf(DomainError);
  const { kind, errors, message } = error as DomainError;
  return { kind, errors, message };
}
