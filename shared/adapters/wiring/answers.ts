import { ENV, requireEnvs, wire } from '../../config.js';
import * as answers from '../../answers/service.js';
import * as page from '../../workspace/answers-page.js';
import { answerStore } from '../answer-repository.js';
import { employeeNames } from '../employee-repository.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';
import { accessService } from './privacy.js';
import { tenantSettings } from './tenants.js';

/** Answers: the answer indexes and the tenant's journeys and classes. */
export const answersService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return answers.answersService({ answers: answerStore, settings: tenantSettings });
});

/** The workspace's answers inbox and its export over the answers service, the names of stores and employees, and the access log. */
export const answersPage = /* @__PURE__ */ wire(() =>
  page.answersPage({
    settings: tenantSettings,
    listAnswers: answersService.listAnswers,
    storeNames: storeTradeNames,
    storeChoices,
    employeeNames,
    recordReads: accessService.recordReads,
  }),
);
