import * as v from 'valibot';
import { entityId } from './fields.js';

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
