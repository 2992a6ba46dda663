import * as v from 'valibot';
import { CaseDeadlineMessage } from '../../shared/cases/deadline-message.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { checkCaseDeadline } from '../../shared/adapters/wiring/cases.js';

/** CaseDeadlineQueue consumer: each record a case's deadline that fired; a case still open becomes overdue and escalates once. */
export const handler = queueHandler({ log: 'Case deadlines', outcomes: 'CaseDeadlines' }, (record) =>
  checkCaseDeadline(v.parse(CaseDeadlineMessage, JSON.parse(record.body))),
);
