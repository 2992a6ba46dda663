import * as v from 'valibot';
import { timestamps } from '../schema.js';

export const EmployeeStatus = v.picklist(['active', 'inactive'], 'must be active or inactive');

export const Employee = v.object({
  id: v.number(),
  employee_id: v.nullable(v.string()),
  name: v.string(),
  email: v.nullable(v.string()),
  /** External code of the employee's main store. */
  store_id: v.nullable(v.string()),
  status: EmployeeStatus,
  /** Internal ids of the linked stores and groups. */
  stores: v.array(v.number()),
  groups: v.array(v.number()),
  ...timestamps,
});
export type Employee = v.InferOutput<typeof Employee>;
