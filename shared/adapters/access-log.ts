import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { AccessLog } from '../privacy/ports.js';
import { TABLE } from '../table.js';
import { batchWrite, db } from './dynamodb.js';

/** How long the record of a read of personal data is kept. */
const ACCESS_KEPT_DAYS = 366;

/** Reads of customers' personal data: one small item per customer read, in the customer's partition. */
export const accessLog: AccessLog = {
  async record(tenantId, entry) {
    const expiresAt = Math.floor(Date.parse(entry.at) / 1000) + ACCESS_KEPT_DAYS * 86_400;
    const requests = [...new Set(entry.customerIds)].map((customerId) => ({
      PutRequest: {
        Item: {
          ...keys.customerAccess(tenantId, customerId, { at: entry.at, requestId: entry.requestId }),
          [TABLE.entityAttribute]: 'CUSTOMER_ACCESS',
          at: entry.at,
          operation: entry.operation,
          key_id: entry.keyId,
          user: entry.user,
          request_id: entry.requestId,
          [TABLE.ttlAttribute]: expiresAt,
        },
      },
    }));
    await batchWrite(db(), requests);
  },

  async list(tenantId, customerId, { limit, before }) {
    const { client, tableName } = db();
    const pk = keys.entity(tenantId, 'CUSTOMER', customerId).pk;
    const { Items = [] } = await client.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: before ? 'pk = :pk AND sk BETWEEN :from AND :before' : 'pk = :pk AND begins_with(sk, :from)',
        ExpressionAttributeValues: {
          ':pk': pk,
          ':from': keys.customerAccessPrefix,
          ...(before ? { ':before': `${keys.customerAccessPrefix}${before}` } : {}),
        },
        ScanIndexForward: false,
        Limit: limit,
      }),
    );
    return Items.map((item) => ({
      at: String(item.at),
      operation: String(item.operation),
      keyId: (item.key_id as string | null) ?? null,
      user: (item.user as string | null) ?? null,
      requestId: String(item.request_id),
    }));
  },
};
