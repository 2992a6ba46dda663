import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';
import { SuggestionsBody, SuggestionsQuery } from '../../shared/themes/suggestions.js';
import { themeSuggestions } from '../../shared/adapters/wiring/themes.js';

/**
 * Frequent key phrases of the period's comments that no theme covers, with their counts and a few answers as
 * examples: what an admin may turn into a theme. Needs a user token; a token limited to some stores sees those only.
 */
export const contract = {
  user: 'any' as const,
  query: SuggestionsQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer(
      'At most 20 phrases, most frequent first: [{ phrase, language (pt, es, en), count, examples: [answer ids] }]',
      SuggestionsBody,
    ),
    401: problem('No valid user token'),
    404: problem('A store the token may not see'),
    422: problem('Invalid parameters (a range over 400 days or backwards, an unknown journey, store and journey together)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user }) => ({
  status: 200,
  body: await themeSuggestions(tenantId, query, user()),
}));
