/**
 * The single table, declared once: the CDK stack and the local setup both build it from this.
 * Generic key names let every entity share the indexes; `shared/keys.ts` decides what goes in them.
 */
/** What the answer indexes hold of a transaction's item (besides keys): what GET /public/answers shows and filters on. */
const ANSWER_ATTRIBUTES = [
  'id',
  'transaction_id',
  'status',
  'journey_id',
  'store_id',
  'employee_id',
  'customer_id',
  'customer_name',
  'rating',
  'rating_items',
  'eval_source',
  'answered_at',
  'personal_expires_at',
  'erased_at',
] as const;

/**
 * What the case indexes hold of a case (besides keys): the whole case but its notes, its history and its alert's claim
 * (so that claiming the alert writes the case item alone).
 */
const CASE_ATTRIBUTES = [
  'id',
  'journeyId',
  'storeId',
  'employeeId',
  'customerId',
  'customerName',
  'score',
  'comment',
  'answeredAt',
  'answerVersion',
  'openedAt',
  'dueAt',
  'overdue',
  'overdueAt',
  // The owner, stored as a list of none or one: the attribute's name from before a case had one owner, kept so that
  // the projections of gsi12-13 (which an index cannot change in place) still hold it.
  'owners',
  'status',
  'firstContactAt',
  'closedAt',
  'rootCause',
  'recovery',
  'erased',
  'version',
] as const;

export const TABLE = {
  partitionKey: 'pk',
  sortKey: 'sk',
  ttlAttribute: 'expiresAt',
  entityAttribute: 'entity',
  indexes: [
    // gsi1: an entity's collection in a tenant, in id order (lists without filter, admin listings).
    { name: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    // gsi2: a collection filtered by status, in id order.
    { name: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
    // gsi3: case- and accent-insensitive name prefix, then id.
    { name: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
    // gsi4: exact match on an external code.
    { name: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
    // gsi5-7: exact match on contact fields: e-mail, phone (E.164), cpf.
    { name: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
    { name: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'gsi6sk' },
    { name: 'gsi7', partitionKey: 'gsi7pk', sortKey: 'gsi7sk' },
    // gsi8: a customer's transactions, keys only: an update of a transaction never rewrites its entry.
    { name: 'gsi8', partitionKey: 'gsi8pk', sortKey: 'gsi8sk', keysOnly: true },
    // gsi9, keys only, sparse: transactions by the day their personal copies expire (a tenant's retention); customers
    // by their second phone (a privacy request finds a person by either phone).
    { name: 'gsi9', partitionKey: 'gsi9pk', sortKey: 'gsi9sk', keysOnly: true },
    // gsi10-11: answers newest first, by store (gsi10) and across the tenant in shards (gsi11), with only what a
    // listing shows: an update of a transaction's other attributes (attempts, contacts) writes neither.
    { name: 'gsi10', partitionKey: 'gsi10pk', sortKey: 'gsi10sk', include: ANSWER_ATTRIBUTES },
    { name: 'gsi11', partitionKey: 'gsi11pk', sortKey: 'gsi11sk', include: ANSWER_ATTRIBUTES },
    // gsi12-13: cases in the list's order (open, overdue first, by due time), by store (gsi12) and across the tenant in
    // shards (gsi13), without their notes and history (which would make every index entry as large as the case).
    { name: 'gsi12', partitionKey: 'gsi12pk', sortKey: 'gsi12sk', include: CASE_ATTRIBUTES },
    { name: 'gsi13', partitionKey: 'gsi13pk', sortKey: 'gsi13sk', include: CASE_ATTRIBUTES },
    // gsi14: cases in the list's order by owner (a person's own partition) or, unassigned, in shards (issue 46 §4).
    { name: 'gsi14', partitionKey: 'gsi14pk', sortKey: 'gsi14sk', include: CASE_ATTRIBUTES },
    // gsi15, keys only: transactions by the instant they were registered and cases by the instant they opened, in
    // shards, for the analytics export's day of surveys and of cases. Keys only, so that no change of a transaction or
    // a case rewrites its entry (whole-item copies in gsi1 or gsi2 would double the writes of every transaction).
    { name: 'gsi15', partitionKey: 'gsi15pk', sortKey: 'gsi15sk', keysOnly: true },
  ],
} as const;

export type IndexName = (typeof TABLE.indexes)[number]['name'];

/** What an index holds of an item beside the keys: nothing, everything, or the attributes it names. */
export function projectionOf(
  index: (typeof TABLE.indexes)[number],
): { type: 'KEYS_ONLY' | 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] } {
  if ('include' in index) return { type: 'INCLUDE', attributes: index.include };
  return { type: 'keysOnly' in index ? 'KEYS_ONLY' : 'ALL' };
}

/** The key attribute names of an index, as declared above. */
export function indexAttributes(name: IndexName): { partitionKey: string; sortKey: string } {
  return TABLE.indexes.find((index) => index.name === name)!;
}

/** The attributes that put an item in an index at (partition, sort); undefined values leave it out (sparse indexes). */
export function inIndex(name: IndexName, partition: string | undefined, sort: string | undefined): Record<string, string | undefined> {
  const { partitionKey, sortKey } = indexAttributes(name);
  return { [partitionKey]: partition, [sortKey]: sort };
}
