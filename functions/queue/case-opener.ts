import * as v from 'valibot';
import { caseOpener } from '../../shared/adapters/wiring/cases.js';
import { CaseMessage } from '../../shared/cases/message.js';
import { queueHandler } from '../../shared/queue/handler.js';

/** CaseQueue consumer: each record one written answer; opens or updates its case, alerts once, publishes case.opened. */
export const handler = queueHandler({ log: 'Case opener', outcomes: 'Cases', failures: 'outcome' }, (record) => {
  const { tenantId, transactionId, version, alert } = v.parse(CaseMessage, JSON.parse(record.body));
  // A WhatsApp alert held by quiet hours comes back on this queue when they end.
  if (alert === 'whatsapp') return caseOpener.alertHeld(tenantId, transactionId);
  return caseOpener.openFromAnswer(tenantId, { transactionId, version });
});
