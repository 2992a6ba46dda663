export { AnswerNotVisibleYet, type OpenOutcome } from './opener.js';
export { MAX_CASE_DAYS, type CaseActor } from './reads.js';
