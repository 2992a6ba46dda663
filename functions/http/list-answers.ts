import { configuredSecret } from '../../shared/adapters/secrets.js';
import { answersService } from '../../shared/adapters/wiring/answers.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { AnswersBody, AnswersQuery } from '../../shared/answers/schema.js';
import { ENV } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { CSV_MEDIA, listPageReply } from '../../shared/http/negotiate.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/**
 * What customers answered, newest first, with their comments, for the stores the user token may see; `Accept:
 * text/csv` gives the same page as CSV. Each page's next one is in `next_cursor` and the `Link` header.
 */
export const contract = {
  user: 'any' as const,
  query: AnswersQuery,
  statuses: { validation: 422 },
  responses: {
    200: {
      ...answer('A page of answers, newest first (as CSV, UTF-8 with a BOM, when `Accept: text/csv`)', AnswersBody),
      alternatives: [CSV_MEDIA],
      nextLink: true as const,
    },
    401: problem('No valid user token'),
    404: problem('A store the token may not see'),
    422: problem('Invalid parameters (an unknown journey or class, a bucket not of the journey, a period over 400 days)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user, keyId, requestId, accept }) => {
  const reader = await user();
  const page = await answersService.listAnswers(tenantId, { query, scope: reader.scope });
  // Names and comments are personal data: their reads are recorded before they are answered.
  await accessService.recordReads(tenantId, page.shownCustomers, { operation: 'listAnswers', keyId, user: reader.name, requestId });
  return listPageReply(accept, page, query);
});
