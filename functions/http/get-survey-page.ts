import { configuredSecret } from '../../shared/adapters/secrets.js';
import { ENV } from '../../shared/config.js';
import { PAGE_RESPONSES, pageHandler, type PageContract } from '../../shared/http/page.js';
import { showSurvey } from '../../shared/surveys/answer-page.js';
import { surveyPageReads } from '../../shared/adapters/wiring/surveys.js';

const secret = await configuredSecret(ENV.surveySecret);

export const contract: PageContract = {
  anonymous: true,
  page: true,
  responses: {
    200: {
      description:
        'The survey form (with `score` chosen when given; nothing is recorded), or thanks once answered; a recovery survey\'s link: "Did we solve it?" with `solved` (yes or no) chosen when given',
    },
    ...PAGE_RESPONSES,
  },
};

export const handler = pageHandler(({ token, query, locale }) =>
  showSurvey({
    token,
    score: query.score,
    ports: surveyPageReads,
    secret: secret(),
    now: new Date(),
    requested: locale,
    recovery: { solved: query.solved },
  }),
);
