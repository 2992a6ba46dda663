/**
 * A case's statuses (shared/cases/record.ts), below both the cases and the results, which count each case's
 * transitions (shared/results/case-tally.ts) without importing the cases.
 */
export const CASE_STATUSES = ['open', 'in_progress', 'resolved', 'closed_unresolved'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
/** The statuses a case leaves no more. */
export const CLOSED_STATUSES: readonly CaseStatus[] = ['resolved', 'closed_unresolved'];
