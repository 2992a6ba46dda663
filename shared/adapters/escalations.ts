import * as v from 'valibot';
import { CLAIM_SECONDS, type EscalationClaims, type EscalationDirectory } from '../cases/overdue.js';
import { keys } from '../keys.js';
import { UserScope } from '../access/user-scope.js';
import { batchGet, db, queryAll } from './dynamodb.js';
import { onceClaims } from './once-claims.js';

/**
 * A case's escalation, once: an item beside the case (`CASE_ESCALATION`) claimed before the e-mail. A claim older than
 * CLAIM_SECONDS is a crash's and may be taken again; once sent, never (its rule and recipients kept on it).
 */
const once = /* @__PURE__ */ onceClaims({
  entity: 'CASE_ESCALATION',
  staleSeconds: CLAIM_SECONDS,
  finished: { state: 'sent', at: 'sentAt' },
});

export const escalationClaims: EscalationClaims = {
  claim: (tenantId, caseId, now) => once.claim(keys.caseEscalation(tenantId, caseId), now),
  sent: (tenantId, caseId, { rule, recipients, at }) => once.finish(keys.caseEscalation(tenantId, caseId), at, { rule, recipients }),
  release: (tenantId, caseId, now) => once.release(keys.caseEscalation(tenantId, caseId), now),
};

const UserItem = v.object({ name: v.string(), scope: UserScope });
const EmployeeGroups = v.object({ groups: v.optional(v.array(v.number()), []) });

/** The tenant's users (one Query of their collection) and the groups of a store's employees (its links, then them). */
export const escalationDirectory: EscalationDirectory = {
  async users(tenantId) {
    const items = await queryAll(db(), { index: 'gsi1', partition: keys.userCollection(tenantId) });
    return items.map((item) => v.parse(UserItem, item));
  },

  async groupsOfStore(tenantId, storeId) {
    const links = await queryAll(db(), { index: 'gsi2', partition: keys.storeEmployees(tenantId, storeId) });
    const employees = await batchGet(
      db(),
      links.map((link) => keys.entity(tenantId, 'EMPLOYEE', Number(link.employeeId))),
    );
    return [...new Set(employees.flatMap((item) => v.parse(EmployeeGroups, item).groups))].sort((a, b) => a - b);
  },
};
