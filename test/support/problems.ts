import { expect } from 'vitest';
import { DomainError, type FieldProblem } from '../../shared/errors.js';
import { PROBLEMS } from '../../shared/http/problem.js';

/** What a caller of the API would see of a refusal: its problem type, its status (the route's default), the fields named. */
export async function refusal(
  action: Promise<unknown>,
): Promise<{ kind: DomainError['kind']; status: number; errors: FieldProblem[]; message: string }> {
  const error = await action.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'the action was refused').toBeInstanceOf(DomainError);
  const { kind, errors, message } = error as DomainError;
  return { kind, status: PROBLEMS[kind].status, errors, message };
}
