import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { submitSurvey } from '../../shared/surveys/answer-page.js';
import { surveyPage } from '../../shared/adapters/wiring/surveys.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  form: {
    score: 'The score of the main question, on the journey indicator scale (required)',
    'class_{classId}': "The score of one of the journey's classes, on its own scale (optional)",
    comment: 'At most 1,000 characters (optional)',
  },
  responses: {
    303: { description: 'Answer recorded: go to the survey page, which now thanks' },
    400: { description: 'The form again, with what is wrong' },
    409: { description: 'This attempt is answered already' },
    ...PAGE_RESPONSES,
  },
};

export const handler = pageHandler(({ token, form, locale }) =>
  submitSurvey({ token, form, ports: surveyPage, secret: secret(), now: new Date(), requested: locale }),
);
