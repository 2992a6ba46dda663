import type { CasePageRequest } from '../../workspace/cases-page.js';
import { caseEdits } from './case-changes.js';
import { casePages } from './case-pages.js';

/** The workspace's case form (POST /app/cases/{id}): the case pages with the API's own change. */
export const changeCase = (request: CasePageRequest) => casePages.changeCase(request, caseEdits.update);
