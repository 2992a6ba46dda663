import * as v from 'valibot';
import { wholeNumber } from '../schema.js';

/**
 * What an operation answers, for the OpenAPI document: each status with its description and body schema. Handlers
 * export their spec (`contract`) beside their `handler`, so the document is generated from the code that runs.
 */
export interface ResponseDoc {
  description: string;
  schema?: v.GenericSchema;
  /** Other media types the same answer may come in, by `Accept` (a text body each, CSV say). */
  alternatives?: readonly string[];
  /** The answer carries a `Link` header to the next page (rel="next") when there is one. */
  nextLink?: true;
  /** A binary answer's media types (an image): its body is the bytes, not JSON. */
  media?: readonly string[];
  /** The headers the answer carries beside x-request-id (which every answer of the service carries). */
  headers?: readonly AnswerHeader[];
}

/** The headers an answer may carry, each described once in the OpenAPI document (infra/openapi.ts). */
export type AnswerHeader = 'ETag' | 'Location' | 'Retry-After';

export const ProblemBody = v.object({
  type: v.string(),
  title: v.string(),
  status: wholeNumber,
  detail: v.string(),
  errors: v.optional(v.array(v.object({ path: v.string(), message: v.string() }))),
});

/** A failure answered with a problem+json body. */
export const problem = (description: string, headers?: readonly AnswerHeader[]): ResponseDoc => ({
  description,
  schema: ProblemBody,
  ...(headers ? { headers } : {}),
});
/** A success answered with bytes of one of `media` (an image). */
export const binary = (description: string, media: readonly string[]): ResponseDoc => ({ description, media });
export const answer = (description: string, schema?: v.GenericSchema, headers?: readonly AnswerHeader[]): ResponseDoc => ({
  description,
  ...(schema ? { schema } : {}),
  ...(headers ? { headers } : {}),
});

const pages = new WeakMap<v.GenericSchema, v.GenericSchema>();
/** A page of a list; the same schema for the same item, so that the OpenAPI document can name it. */
export const listOf = (item: v.GenericSchema): v.GenericSchema => {
  let page = pages.get(item);
  if (!page)
    pages.set(item, (page = v.object({ data: v.array(item), page: wholeNumber, limit: wholeNumber, next_cursor: v.nullable(v.string()) })));
  return page;
};
export const dataOf = (item: v.GenericSchema) => v.object({ data: v.array(item) });
