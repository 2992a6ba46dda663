import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { AUDIT_ACTIONS, AuditActorBody, AUDIT_KEPT_DAYS, type AuditEntry, type AuditLog, type ConfigChange } from '../audit/log.js';
import { openCursor, sealCursor } from './cursor.js';
import { ValidationError } from '../errors.js';
import { db } from './dynamodb.js';

const EntryItem = v.object({
  id: v.string(),
  at: v.string(),
  actor: AuditActorBody,
  action: v.picklist(AUDIT_ACTIONS),
  changes: v.array(v.object({ path: v.string(), old: v.unknown(), new: v.unknown() })),
});

/**
 * The most an entry's changes may take: under DynamoDB's 400 KB item limit, so that no change escapes the log by its
 * size (2,000 journeys put at once are 480 KB of new values). A page of the log stays under Lambda's 6 MB response
 * all the same: a Query reads at most 1 MB.
 */
export const ENTRY_MAX_BYTES = 350 * 1024;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? 'null');
const omitted = (value: unknown) => (value === null || value === undefined ? null : { omitted_bytes: bytesOf(value) });

/**
 * A change list that fits one item: every path kept, and from the largest values down, each value's size in place of
 * the value until it fits; past that (paths alone too many), the first paths and how many more.
 */
export function fitted(changes: ConfigChange[]): ConfigChange[] {
  let total = bytesOf(changes);
  if (total <= ENTRY_MAX_BYTES) return changes;
  const out = [...changes];
  const largestFirst = out.map((change, index) => ({ index, bytes: bytesOf(change) })).sort((x, y) => y.bytes - x.bytes);
  for (const { index, bytes } of largestFirst) {
    if (total <= ENTRY_MAX_BYTES) return out;
    const change = out[index]!;
    out[index] = { path: change.path, old: omitted(change.old), new: omitted(change.new) };
    total += bytesOf(out[index]) - bytes;
  }
  const kept: ConfigChange[] = [];
  let used = 0;
  for (const change of out) {
    used += bytesOf(change) + 1;
    if (used > ENTRY_MAX_BYTES - 100) break;
    kept.push(change);
  }
  return [...kept, { path: '...', old: null, new: { omitted_changes: out.length - kept.length } }];
}

/** The tenant's admin changes: one item each in the tenant's audit partition, sorted by time, expiring by TTL. */
export const auditLog: AuditLog = {
  async record(tenantId, entry) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.auditEntry(tenantId, entry.at, entry.id),
          [TABLE.entityAttribute]: 'AUDIT',
          ...entry,
          changes: fitted(entry.changes),
          [TABLE.ttlAttribute]: Math.floor(Date.parse(entry.at) / 1000) + AUDIT_KEPT_DAYS * 86_400,
        },
      }),
    );
  },

  // '0' and '9' sort before and after every ISO-8601 time of years 1000 to 8999.
  async list(tenantId, { from = '0', to = '9', limit, cursor }) {
    const { client, tableName } = db();
    const partition = keys.audit(tenantId);
    // A cursor is sealed for this tenant and period: it cannot be read, altered or used with another.
    const scope = JSON.stringify(['audit', partition, from, to]);
    const { Items = [], LastEvaluatedKey } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
        ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#sk': TABLE.sortKey },
        // `~` sorts after every character of an entry's id, so an entry at `to` itself is included.
        ExpressionAttributeValues: { ':pk': partition, ':from': from, ':to': `${to}~` },
        ScanIndexForward: false,
        Limit: limit,
        ...(cursor ? { ExclusiveStartKey: startKeyOf(cursor, scope, partition) } : {}),
      }),
    );
    return {
      data: Items.map((item): AuditEntry => v.parse(EntryItem, item)),
      next_cursor: LastEvaluatedKey ? sealCursor(LastEvaluatedKey, scope) : null,
    };
  },
};

const StartKey = v.strictObject({ [TABLE.partitionKey]: v.string(), [TABLE.sortKey]: v.string() });

function startKeyOf(cursor: string, scope: string, partition: string): Record<string, unknown> {
  const key = v.safeParse(StartKey, openCursor(cursor, scope));
  if (!key.success || key.output[TABLE.partitionKey] !== partition)
    throw new ValidationError('The cursor is not valid for this query.', [
      { path: 'cursor', message: 'must be a next_cursor returned by this list with the same filters' },
    ]);
  return key.output;
}
