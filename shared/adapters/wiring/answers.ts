import { ENV, requireEnvs, wire } from '../../config.js';
import * as exports from '../../answers/export.js';
import * as answers from '../../answers/service.js';
import { BUCKETS } from '../../buckets.js';
import { QUEUES } from '../../queues.js';
import * as page from '../../workspace/answers-page.js';
import { answerStore } from '../answer-repository.js';
import { employeeChoices, employeeNames } from '../employee-repository.js';
import { exportFiles } from '../export-files.js';
import { exportJobs } from '../export-jobs.js';
import { sendMessage } from '../sqs.js';
import { storeChoices, storeTradeNames } from '../store-repository.js';
import { accessService } from './privacy.js';
import { tenantSettings } from './tenants.js';

/** Answers: the answer indexes and the tenant's journeys and classes. */
export const answersService = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return answers.answersService({ answers: answerStore, settings: tenantSettings });
});

/**
 * The workspace export (a job): its item in the table, its file in the export bucket, its message on the export
 * queue, over the answers service. Each function checks the variables of what it uses: the page starting one (the
 * queue: `answerExportStarts`), the consumer and the download (the bucket: `answerExportFiles`).
 */
export const answerExports = /* @__PURE__ */ wire(() => {
  requireEnvs(ENV.tableName);
  return exports.answerExports({
    jobs: exportJobs,
    files: exportFiles,
    send: async (message) => void (await sendMessage('exports', message)),
    settings: tenantSettings,
    listAnswers: answersService.listAnswers,
    storeNames: storeTradeNames,
    employeeNames,
    recordReads: accessService.recordReads,
  });
});
export const answerExportStarts = /* @__PURE__ */ wire(() => {
  requireEnvs(QUEUES.exports.urlEnv);
  return answerExports;
});
export const answerExportFiles = /* @__PURE__ */ wire(() => {
  requireEnvs(BUCKETS.exports.env);
  return answerExports;
});

/** The workspace's answers inbox and its exports over the answers service, the names of stores and employees, and the access log. */
export const answersPage = /* @__PURE__ */ wire(() =>
  page.answersPage({
    settings: tenantSettings,
    listAnswers: answersService.listAnswers,
    storeNames: storeTradeNames,
    storeChoices,
    employeeChoices,
    employeeNames,
    recordReads: accessService.recordReads,
    exports: answerExports,
  }),
);
