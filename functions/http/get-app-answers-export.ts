import { answerExportFiles, answersPage } from '../../shared/adapters/wiring/answers.js';
import { signedInPage } from '../../shared/http/workspace.js';

export const contract = {
  page: true,
  responses: {
    303: { description: 'To an address of the file that lasts five minutes (the user who asked, while its stores are theirs, for a day)' },
    404: { description: 'No such export of this user, or no longer available: a page saying so' },
  },
} as const;

export const handler = signedInPage(async ({ base, path, query, requestId, session, user }) =>
  answersPage.downloadExport({ tenantId: session.tenantId, user: await user(), base, requestId, query }, path.id ?? '', answerExportFiles),
);
