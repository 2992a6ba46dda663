import * as v from 'valibot';
import { ValidationError, type FieldProblem } from '../errors.js';
import { describeIssue } from '../schema.js';

/** Parses `input` with `schema`, or throws a ValidationError listing every problem with its dotted path. */
export function validate<S extends v.GenericSchema | undefined>(schema: S, input: unknown, where: string) {
  if (!schema) return undefined;
  const result = v.safeParse(schema, input);
  if (result.success) return result.output as S extends v.GenericSchema ? v.InferOutput<S> : undefined;
  throw new ValidationError(
    `Invalid ${where}.`,
    result.issues.map((issue) => describe(issue, where)),
  );
}

function describe(issue: v.BaseIssue<unknown>, where: string): FieldProblem {
  return { path: v.getDotPath(issue) ?? where, message: describeIssue(issue) };
}
