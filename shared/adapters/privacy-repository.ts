import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { keys } from '../keys.js';
import type { DataSubjects, PrivacyRequestRecord, PrivacyRequests } from '../privacy/ports.js';
import { PRIVACY_REQUEST_STATUSES, PRIVACY_REQUEST_TYPES } from '../privacy/schema.js';
import { indexAttributes, TABLE } from '../table.js';
import { customers } from './customer-repository.js';
import { eraseCaseCopies } from './case-repository.js';
import { batchGet, db, isConditionFailure, queryAll, type Item } from './dynamodb.js';
import { holdsPersonalCopies, stripPersonalCopies, unexpired } from './personal-copies.js';

/** How long a privacy request's record is kept: the tenant's proof that it answered (LGPD asks for five years). */
const REQUEST_KEPT_DAYS = 5 * 365;
/** An export lists at most this many transactions of a customer (a response must stay under Lambda's 6 MB). */
export const EXPORT_MAX_TRANSACTIONS = 2000;

const Problems = v.array(v.object({ path: v.string(), message: v.string() }));
const Stored = v.object({
  id: v.string(),
  type: v.picklist(PRIVACY_REQUEST_TYPES),
  status: v.picklist(PRIVACY_REQUEST_STATUSES),
  phase: v.optional(v.literal('recheck')),
  identifiers: v.optional(v.nullable(v.record(v.string(), v.string()))),
  subjects: v.array(v.number()),
  requested_by: v.string(),
  created_at: v.string(),
  finished_at: v.nullable(v.string()),
  errors: Problems,
});

export const privacyRequests: PrivacyRequests = {
  async insert(tenantId, request) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.privacyRequest(tenantId, request.id),
          [TABLE.entityAttribute]: 'PRIVACY_REQUEST',
          id: request.id,
          type: request.type,
          status: request.status,
          identifiers: request.identifiers,
          subjects: request.subjects,
          requested_by: request.requestedBy,
          created_at: request.createdAt,
          finished_at: request.finishedAt,
          errors: request.errors,
          [TABLE.ttlAttribute]: Math.floor(Date.parse(request.createdAt) / 1000) + REQUEST_KEPT_DAYS * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  },

  async get(tenantId, id) {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.privacyRequest(tenantId, id), ConsistentRead: true }),
    );
    if (!Item) return undefined;
    const stored = v.parse(Stored, Item);
    return {
      id: stored.id,
      type: stored.type,
      status: stored.status,
      phase: stored.phase ?? null,
      identifiers: stored.identifiers ?? null,
      subjects: stored.subjects,
      requestedBy: stored.requested_by,
      createdAt: stored.created_at,
      finishedAt: stored.finished_at,
      errors: stored.errors,
    } satisfies PrivacyRequestRecord;
  },

  async firstPassDone(tenantId, id, subjects) {
    const { client, tableName } = db();
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.privacyRequest(tenantId, id),
          UpdateExpression: 'SET phase = :recheck, subjects = :subjects REMOVE identifiers',
          ConditionExpression: '#status = :pending AND attribute_not_exists(phase)',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':recheck': 'recheck', ':subjects': subjects, ':pending': 'pending' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async finish(tenantId, id, outcome) {
    const { client, tableName } = db();
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.privacyRequest(tenantId, id),
          // The identifiers were needed to find the subjects; once found, the request keeps only their ids.
          UpdateExpression: 'SET #status = :status, subjects = :subjects, finished_at = :at, #errors = :errors REMOVE identifiers, phase',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status', '#errors': 'errors' },
          ExpressionAttributeValues: {
            ':status': outcome.status,
            ':subjects': outcome.subjects,
            ':at': outcome.finishedAt,
            ':errors': outcome.errors,
            ':pending': 'pending',
          },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },
};

/** Stored attributes that are keys or index entries, not data: left out of exports. */
const isDataAttribute = (name: string) => !/^(pk|sk|gsi\d+(pk|sk)|entity|expiresAt)$/.test(name);
const dataOf = (item: Item): Record<string, unknown> => Object.fromEntries(Object.entries(item).filter(([name]) => isDataAttribute(name)));

/** The keys of a customer's transactions, newest last (gsi8 holds keys only). */
async function transactionKeys(tenantId: number, customerId: number, limit = Infinity): Promise<{ keys: Item[]; more: boolean }> {
  // One more than asked tells whether there were more.
  const items = await queryAll(db(), { index: 'gsi8', partition: keys.customerTransactions(tenantId, customerId), atMost: limit + 1 });
  return { keys: items.slice(0, limit).map(({ pk, sk }) => ({ pk, sk })), more: items.length > limit };
}

/** Writes of one erasure in flight at once. */
const PARALLEL_WRITES = 25;
const inChunks = async <T>(values: T[], write: (value: T) => Promise<unknown>) => {
  for (let i = 0; i < values.length; i += PARALLEL_WRITES) await Promise.all(values.slice(i, i + PARALLEL_WRITES).map(write));
};

const INDEXED_BY = { cpf: 'gsi7', email: 'gsi5', phone: 'gsi6' } as const;

export const dataSubjects: DataSubjects = {
  async find(tenantId, identifiers) {
    const ids = new Set<number>();
    const lookups: Promise<void>[] = [];
    if (identifiers.client_id !== undefined)
      lookups.push(customers.findByExternalId(tenantId, identifiers.client_id).then((customer) => void (customer && ids.add(customer.id))));
    for (const field of ['cpf', 'email', 'phone'] as const) {
      const value = identifiers[field];
      if (value === undefined) continue;
      lookups.push(
        queryAll(db(), { index: INDEXED_BY[field], partition: keys.byValue(tenantId, { entity: 'CUSTOMER', field, value }) }).then(
          (items) => {
            for (const item of items) if (item[TABLE.entityAttribute] === 'CUSTOMER') ids.add(Number(item.id));
          },
        ),
      );
    }
    if (identifiers.phone !== undefined) {
      // A customer's second phone, in a keys-only index whose sort key is the customer's id.
      const partition = keys.byValue(tenantId, { entity: 'CUSTOMER', field: 'phone', value: identifiers.phone });
      lookups.push(
        queryAll(db(), { index: 'gsi9', partition }).then((items) => {
          for (const item of items) ids.add(Number(item[indexAttributes('gsi9').sortKey]));
        }),
      );
    }
    await Promise.all(lookups);
    return [...ids].sort((a, b) => a - b);
  },

  async named(tenantId, customerId, request) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: {
          ...keys.privacyNamed(tenantId, customerId, request.id),
          [TABLE.entityAttribute]: 'PRIVACY_NAMED',
          request_id: request.id,
          type: request.type,
          created_at: request.createdAt,
        },
      }),
    );
  },

  async dossier(tenantId, customerId) {
    const { client, tableName } = db();
    const [{ Item: customer }, { keys: txKeys, more }, named] = await Promise.all([
      client.send(new GetCommand({ TableName: tableName, Key: keys.entity(tenantId, 'CUSTOMER', customerId), ConsistentRead: true })),
      transactionKeys(tenantId, customerId, EXPORT_MAX_TRANSACTIONS),
      queryAll(db(), { partition: keys.entity(tenantId, 'CUSTOMER', customerId).pk, sortBeginsWith: keys.privacyNamedPrefix }),
    ]);
    if (!customer) return undefined;
    // A case is under its transaction's id: read in the transactions' own BatchGetItem (half a unit per transaction
    // more, no round trip more: an export is rare).
    const caseKeys = txKeys.map(({ pk }) => keys.case(tenantId, keys.transactionIdOf(String(pk))));
    const read = await batchGet(db(), [...txKeys, ...caseKeys]);
    const isCase = (item: Record<string, unknown>) => item.sk === caseKeys[0]?.sk;
    const [transactions, cases] = [read.filter((item) => !isCase(item)), read.filter(isCase)];
    return {
      customer: dataOf(customer),
      transactions: transactions
        .map((item) => dataOf(unexpired(item)))
        .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at))),
      transactionsTruncated: more,
      cases: cases.map(dataOf).sort((a, b) => Number(a.id) - Number(b.id)),
      privacyRequests: named.map(dataOf),
    };
  },

  async transactionsOf(tenantId, customerId) {
    const { keys: found } = await transactionKeys(tenantId, customerId);
    return found.map(({ pk }) => keys.transactionIdOf(String(pk)));
  },

  async markErased(tenantId, transactionIds, mark) {
    const { client, tableName } = db();
    await inChunks(transactionIds, (id) =>
      client
        .send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.transaction(tenantId, id),
            UpdateExpression: 'SET erased_at = if_not_exists(erased_at, :at), erased_by = if_not_exists(erased_by, :by)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': mark.at, ':by': mark.requestId },
          }),
        )
        .catch((error: unknown) => {
          if (!isConditionFailure(error)) throw error;
        }),
    );
  },

  async copiesOf(tenantId, transactionIds) {
    const items = await batchGet(
      db(),
      transactionIds.map((id) => keys.transaction(tenantId, id)),
      { consistent: true },
    );
    return items.map((item) => ({
      transactionId: Number(item.id),
      marked: item.erased_at !== undefined,
      // The transaction's free params are the tenant's own fields: they may name the customer, so they go too.
      holdsCopies: holdsPersonalCopies(item, { params: true }),
      answeredAt: typeof item.answered_at === 'string' ? item.answered_at : null,
      ...(typeof item.created_at === 'string' ? { createdAt: item.created_at } : {}),
      stored: item,
    }));
  },

  async strip(_tenantId, read) {
    return stripPersonalCopies(read.stored, { params: {} }, { asRead: true });
  },

  async eraseCases(tenantId, transactionIds, { at }) {
    await eraseCaseCopies(tenantId, transactionIds, { at });
  },

  async eraseCustomer(tenantId, customerId, { requestId, at }) {
    const { client, tableName } = db();
    const key = keys.entity(tenantId, 'CUSTOMER', customerId);
    const { Item: customer } = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    if (!customer || customer[TABLE.entityAttribute] !== 'CUSTOMER') return;
    if (typeof customer.client_id === 'string') {
      // The client_id's guard goes, so the same client_id later makes a new customer; only if it still names this one.
      try {
        await client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.externalId(tenantId, 'CUSTOMER', customer.client_id),
            ConditionExpression: 'id = :id',
            ExpressionAttributeValues: { ':id': customerId },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }
    // The customer becomes a marker: its id, when and by which request. Replacing the item takes it out of every index.
    await client.send(
      new PutCommand({
        TableName: tableName,
        Item: { ...key, [TABLE.entityAttribute]: 'CUSTOMER_ERASED', id: customerId, erased_at: at, erased_by: requestId },
      }),
    );
  },
};
