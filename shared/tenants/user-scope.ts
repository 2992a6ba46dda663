import * as v from 'valibot';

/** An id of the tenant's things (stores, groups, journeys, classes): a positive 32-bit integer. */
export const entityId = v.pipe(
  v.number('must be a number'),
  v.integer('must be an integer'),
  v.minValue(1, 'must be at least 1'),
  v.maxValue(2_147_483_647, 'is too large'),
);

/** What a user token may change: everything, or the listed stores and groups. */
export const UserScope = v.union(
  [
    v.literal('all'),
    v.strictObject({
      stores: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 stores')),
      groups: v.pipe(v.array(entityId), v.maxLength(1000, 'may list at most 1000 groups')),
    }),
  ],
  'must be "all" or { "stores": [ids], "groups": [ids] }',
);
export type UserScope = v.InferOutput<typeof UserScope>;
