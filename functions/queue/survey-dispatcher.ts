import { configuredSecret } from '../../shared/adapters/secrets.js';
import { configured, ENV } from '../../shared/config.js';
import { queueHandler } from '../../shared/queue/handler.js';
import { dispatchRecord } from '../../shared/surveys/dispatcher.js';
import { surveyDelivery } from '../../shared/adapters/wiring/surveys.js';

const surveySecret = await configuredSecret(ENV.surveySecret);
const baseUrl = configured(ENV.surveyBaseUrl);

/** SurveyDispatchQueue consumer: each record one survey attempt; records that fail go back one by one. */
export const handler = queueHandler({ log: 'Survey dispatch batch', failures: 'ConsumerRecordFailures' }, (record) =>
  dispatchRecord(record, surveyDelivery, { surveySecret: surveySecret(), baseUrl: baseUrl() }),
);
