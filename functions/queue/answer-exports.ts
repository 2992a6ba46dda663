import * as v from 'valibot';
import { ExportMessage } from '../../shared/answers/export.js';
import { configuredSecret } from '../../shared/adapters/secrets.js';
import { answerExportFiles } from '../../shared/adapters/wiring/answers.js';
import { ENV } from '../../shared/config.js';
import { queueHandler } from '../../shared/queue/handler.js';

// It pages through the answers, whose cursors are sealed with the deployment's cursor secret.
await configuredSecret(ENV.cursorSecret);

/** ExportQueue consumer: each record one run of a workspace export; writes its file once (a redelivery writes nothing new). */
export const handler = queueHandler({ log: 'Answer exports', outcomes: 'AnswerExports', failures: 'outcome' }, (record) =>
  answerExportFiles.run(v.parse(ExportMessage, JSON.parse(record.body))),
);
