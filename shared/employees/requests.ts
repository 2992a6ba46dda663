import * as v from 'valibot';
import { MAX_INT_ID, changesOf, email, externalCode, integerString, pagingQuery, text } from '../schema.js';
import { EmployeeStatus } from './schema.js';

/*
 * What clients send about employees. Apart from the record (./schema.ts), which the repositories parse every item
 * with, so that the functions that only read or create employees in passing (transactions) build none of these.
 */

export const CreateEmployeeBody = v.strictObject({
  name: text(200),
  email: v.optional(email),
  employee_id: v.optional(externalCode),
  store_id: v.optional(externalCode),
  status: v.optional(EmployeeStatus, 'active'),
});
export type CreateEmployeeInput = v.InferOutput<typeof CreateEmployeeBody>;

export const UpdateEmployeeBody = changesOf({
  name: v.optional(text(200)),
  email: v.optional(v.nullable(email)),
  employee_id: v.optional(v.nullable(externalCode)),
  store_id: v.optional(v.nullable(externalCode)),
  status: v.optional(EmployeeStatus),
});
export type EmployeeChanges = v.InferOutput<typeof UpdateEmployeeBody>;

export const ListEmployeesQuery = v.strictObject({
  ...pagingQuery,
  name: v.optional(text(200)),
  email: v.optional(email),
  id: v.optional(integerString(1, MAX_INT_ID)),
  store: v.optional(integerString(1, MAX_INT_ID)),
  /** The reference API's name for the internal store filter. */
  store_id: v.optional(integerString(1, MAX_INT_ID)),
  external_store_id: v.optional(externalCode),
  status: v.optional(EmployeeStatus),
});
export type EmployeeFilters = v.InferOutput<typeof ListEmployeesQuery>;

/** Relation bodies carry internal ids only. */
const internalIds = (field: string) =>
  v.pipe(
    v.array(
      v.pipe(
        v.number('must be an internal id (a number)'),
        v.integer('must be an integer'),
        v.minValue(1, 'must be at least 1'),
        v.maxValue(MAX_INT_ID, 'is too large'),
      ),
      `must be a list of internal ${field} ids`,
    ),
    v.maxLength(1000, 'may hold at most 1000 ids'),
    v.check((ids) => new Set(ids).size === ids.length, 'must not repeat an id'),
  );
export const EmployeeStoresBody = v.strictObject({ stores: internalIds('store') });
export const EmployeeGroupsBody = v.strictObject({ groups: internalIds('group') });
