import type { CasePorts } from './ports.js';
import { caseChanges } from './changes.js';
import { caseOpening } from './opener.js';
import { caseReads } from './reads.js';
import { caseSystemChanges } from './system-changes.js';

export { AnswerNotVisibleYet, type OpenOutcome } from './opener.js';
export { type CaseActor } from './reads.js';

/**
 * Cases (issue 33): opened from matching answers by the case queue's consumer, alerted once, moved by managers through
 * one conditional write per change, marked overdue and recovered by the parts that own those. Each part is its own
 * module, so that a function bundles only the parts it runs (a page that reads a case holds neither the opener nor
 * its alerts' words); this is all of them.
 */
export function caseService(ports: CasePorts) {
  return { ...caseOpening(ports), ...caseReads(ports), ...caseChanges(ports), ...caseSystemChanges(ports) };
}

export type CaseService = ReturnType<typeof caseService>;
