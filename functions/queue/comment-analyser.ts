import * as v from 'valibot';
import { commentAnalyser } from '../../shared/adapters/wiring/themes.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { AnalysisMessage } from '../../shared/themes/message.js';

/** AnalysisQueue consumer: each record one written answer with a comment; its themes and sentiment, counted once. */
export const handler = queueHandler({ log: 'Comment analyser', outcomes: 'Analyses', failures: 'outcome' }, (record) => {
  const { tenantId, transactionId, version } = v.parse(AnalysisMessage, JSON.parse(record.body));
  return commentAnalyser.analyse(tenantId, transactionId, version);
});
