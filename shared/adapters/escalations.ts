import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { CLAIM_SECONDS, type EscalationClaims, type EscalationDirectory } from '../cases/overdue.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { UserScope } from '../tenants/config-schema.js';
import { batchGet, db, isConditionFailure, queryAll } from './dynamodb.js';

/**
 * A case's escalation, once: an item beside the case (`ESCALATION`) written conditionally before the e-mail. A claim
 * older than CLAIM_SECONDS is a crash's and may be taken again; once sent, never.
 */
export const escalationClaims: EscalationClaims = {
  async claim(tenantId, caseId, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.caseEscalation(tenantId, caseId),
            [TABLE.entityAttribute]: 'CASE_ESCALATION',
            state: 'claimed',
            claimedAt: now.toISOString(),
          },
          ConditionExpression: 'attribute_not_exists(#pk) OR (#state = :claimed AND claimedAt < :stale)',
          ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#state': 'state' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':stale': new Date(now.getTime() - CLAIM_SECONDS * 1000).toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async sent(tenantId, caseId, now, { rule, recipients }) {
    const { client, tableName } = db();
    await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.caseEscalation(tenantId, caseId),
        UpdateExpression: 'SET #state = :sent, sentAt = :at, #rule = :rule, recipients = :recipients',
        ExpressionAttributeNames: { '#state': 'state', '#rule': 'rule' },
        ExpressionAttributeValues: { ':sent': 'sent', ':at': now.toISOString(), ':rule': rule, ':recipients': recipients },
      }),
    );
  },

  async release(tenantId, caseId, now) {
    const { client, tableName } = db();
    try {
      await client.send(
        new DeleteCommand({
          TableName: tableName,
          Key: keys.caseEscalation(tenantId, caseId),
          ConditionExpression: '#state = :claimed AND claimedAt = :at',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':claimed': 'claimed', ':at': now.toISOString() },
        }),
      );
    } catch (error) {
      // Someone else's claim since, or sent: nothing of ours to give back.
      if (!isConditionFailure(error)) throw error;
    }
  },
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
