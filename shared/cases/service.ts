export { AnswerNotVisibleYet, type OpenOutcome } from './opener.js';
export { type CaseActor } from './reads.js';
