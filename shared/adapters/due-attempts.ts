import { dueTimersOf } from './due-timers.js';

/** Survey attempts waiting in the table by due minute (timers of kind `surveyAttempt`), and the release's checkpoint. */
export const dueAttempts = dueTimersOf('surveyAttempt');
