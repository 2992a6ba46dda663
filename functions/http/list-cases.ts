import { configuredSecret } from '../../shared/adapters/secrets.js';
import { caseReads } from '../../shared/adapters/wiring/cases.js';
import { accessService } from '../../shared/adapters/wiring/privacy.js';
import { CasesBody } from '../../shared/cases/bodies.js';
import { CasesQuery } from '../../shared/cases/schema.js';
import { ENV } from '../../shared/config.js';
import { answer, problem } from '../../shared/http/contract.js';
import { httpHandler } from '../../shared/http/handler.js';

// Its pages' cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/**
 * Cases the user token may see: open, then in progress, then closed; overdue first within each, then by due time.
 * Notes and history are on each case's own read (GET /public/cases/{id}).
 */
export const contract = {
  user: 'any' as const,
  meParameter: 'owner',
  query: CasesQuery,
  statuses: { validation: 422 },
  responses: {
    200: answer('A page of cases in the list order (the next one in next_cursor)', CasesBody),
    400: problem("owner=me without a user's token (errors names owner)"),
    401: problem('No valid user token'),
    404: problem('A store the token may not see'),
    422: problem('Invalid parameters (a status, a period over 400 days, a cursor of another query, number with another filter)'),
  },
};

export const handler = httpHandler(contract, async ({ tenantId, query, user, keyId, requestId }) => {
  const reader = await user();
  const page = await caseReads.list(tenantId, query, reader);
  // Names and comments are personal data: their reads are recorded before they are answered.
  await accessService.recordReads(tenantId, page.shownCustomers, { operation: 'listCases', keyId, user: reader.name, requestId });
  return { status: 200, body: page.body };
});
