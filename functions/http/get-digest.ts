import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { DigestBody, DigestQuery } from '../../shared/digest/schema.js';
import { digestReads } from '../../shared/adapters/wiring/digest.js';

/**
 * The digest's figures of the last whole week (Monday to Sunday in the tenant's zone) or day, or of the days `from` to
 * `to` (at most 31), against the period of as many days before:
 * what the digest e-mail shows, in the user token's scope as GET /public/results reads it.
 */
export const contract = {
  user: 'any' as const,
  query: DigestQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer("The digest's figures: each journey's score and change, rates, rankings, open and overdue cases", DigestBody),
    401: problem('No valid user token'),
    404: problem('A store the token may not see'),
    422: problem(
      'Invalid parameters (a period other than week or day, a store that is not an id, `from` or `to` not a date, one without the other, `from` after `to`, or more than 31 days)',
    ),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user }) => ({
  status: 200,
  body: await digestReads.figures({ tenantId, ...query, now: new Date() }, user()),
}));
