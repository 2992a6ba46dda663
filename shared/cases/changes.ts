import { caseDeltas } from '../results/case-tally.js';
import { PreconditionFailedError, ValidationError, type FieldProblem } from '../errors.js';
import { publishCase, slugOf, withHistory } from './case-event.js';
import type { CasePorts } from './ports.js';
import { CLOSED_STATUSES, MAX_NOTES, TRANSITIONS, type CaseHistoryEntry, type CaseRecord } from './record.js';
import { visibleCase, type CaseActor } from './reads.js';
import { mayOwn } from './owner.js';
import { casesSettingsOf } from './rules.js';
import type { CaseBody } from './bodies.js';
import { caseBody, type CasePatch } from './schema.js';

const changedSinceRead = (version?: number) =>
  new PreconditionFailedError(
    `The case changed since it was read${version ? ` (it is at version ${version})` : ''}: read it again and apply your change to it.`,
  );

const OWNER_PROBLEM = "must be null or the e-mail address of a user who signs in, enabled, whose scope holds the case's store";

/** A manager's change to a case (PATCH /public/cases/{id}, the workspace's case form). */
export function caseChanges(ports: Pick<CasePorts, 'cases' | 'users' | 'settings' | 'events' | 'recovery'>) {
  const { cases, users, settings } = ports;
  const visible = (tenantId: number, id: number, scope: CaseActor['scope']) => visibleCase(cases, tenantId, { id, scope });

  /**
   * PATCH /public/cases/{id}: a status (along TRANSITIONS; resolving takes a root cause of the tenant's and a note), an
   * owner (`mayOwn`; null unassigns), a root cause, a note. Every wrong field is named. One change per
   * version read: made only while the case is still at `expected` (the caller's If-Match, the form's version; `current`
   * whatever it is), with one conditional write, so that of several changes made from one read (two managers, a
   * form sent twice) exactly one is written and the others are refused (PreconditionFailedError).
   */
  async function update(
    tenantId: number,
    {
      id,
      patch,
      actor,
      expected,
      now = new Date(),
    }: { id: number; patch: CasePatch; actor: CaseActor; expected: number | 'current'; now?: Date },
  ): Promise<CaseBody> {
    const fields = ['status', 'owner', 'root_cause', 'note'] as const;
    if (!fields.some((field) => patch[field] !== undefined))
      throw new ValidationError('Nothing to change.', [{ path: '', message: `must set at least one of ${fields.join(', ')}` }]);
    const [current, config] = await Promise.all([visible(tenantId, id, actor.scope), settings(tenantId)]);
    if (expected !== 'current' && current.version !== expected) throw changedSinceRead(current.version);
    const at = now.toISOString();
    const by = actor.name;
    const problems: FieldProblem[] = [];
    const next: CaseRecord = { ...current, version: current.version + 1 };
    const history: CaseHistoryEntry[] = [];

    const status = patch.status ?? current.status;
    if (status !== current.status) {
      if (!TRANSITIONS[current.status].includes(status)) {
        const allowed = TRANSITIONS[current.status];
        problems.push({
          path: 'status',
          message: `a case ${current.status} cannot become ${status}${allowed.length ? ` (it may become ${allowed.join(' or ')})` : ' (it is closed)'}`,
        });
      } else {
        next.status = status;
        if (status === 'in_progress') next.firstContactAt = current.firstContactAt ?? at;
        if (CLOSED_STATUSES.includes(status)) next.closedAt = at;
        history.push({ at, by, action: 'status', from: current.status, to: status });
      }
    }
    if (patch.root_cause !== undefined) {
      const { rootCauses } = casesSettingsOf(config);
      if (!rootCauses.includes(patch.root_cause)) problems.push({ path: 'root_cause', message: `must be one of ${rootCauses.join(', ')}` });
      else next.rootCause = patch.root_cause;
    }
    if (status === 'resolved' && TRANSITIONS[current.status].includes('resolved')) {
      if (patch.root_cause === undefined && !current.rootCause)
        problems.push({ path: 'root_cause', message: 'is required to resolve a case' });
      if (patch.note === undefined) problems.push({ path: 'note', message: 'is required to resolve a case' });
    }
    if (patch.owner !== undefined && patch.owner !== current.owner) {
      if (
        patch.owner !== null &&
        !(await mayOwn(users, tenantId, { name: patch.owner, storeId: current.storeId, regions: config.regions ?? [] }))
      )
        problems.push({ path: 'owner', message: OWNER_PROBLEM });
      else {
        next.owner = patch.owner;
        history.push({ at, by, action: 'owner', from: current.owner, to: patch.owner });
      }
    }
    if (patch.note !== undefined) {
      // A note is about the customer: once they are erased, it would bring their data back.
      if (current.erased) problems.push({ path: 'note', message: 'the customer of this case was erased: it takes no notes' });
      else if (current.notes.length >= MAX_NOTES)
        problems.push({ path: 'note', message: `the case holds the most notes it may (${MAX_NOTES})` });
      else {
        next.notes = [...current.notes, { author: by, at, text: patch.note }];
        history.push({ at, by, action: 'note' });
      }
    }
    if (problems.length) throw new ValidationError('The change does not fit this case.', problems);
    next.history = withHistory(current, ...history);
    if (!(await cases.replace(tenantId, next, caseDeltas(current, next)))) throw changedSinceRead();
    if (next.status === 'resolved' && current.status !== 'resolved') {
      await publishCase(ports, tenantId, { type: 'case.resolved', record: next, config, at: now });
      await ports.recovery?.request(tenantId, next);
    }
    return caseBody(next, slugOf(config, next.journeyId));
  }

  return { update };
}
