import * as v from 'valibot';
import { timestamps, wholeNumber } from '../schema.js';

export const EmployeeStatus = v.picklist(['active', 'inactive'], 'must be active or inactive');

export const Employee = v.object({
  id: wholeNumber,
  employee_id: v.nullable(v.string()),
  name: v.string(),
  email: v.nullable(v.string()),
  /** External code of the employee's main store. */
  store_id: v.nullable(v.string()),
  status: EmployeeStatus,
  /** Internal ids of the linked stores and groups. */
  stores: v.array(wholeNumber),
  groups: v.array(wholeNumber),
  ...timestamps,
});
export type Employee = v.InferOutput<typeof Employee>;
