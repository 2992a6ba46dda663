import type { Found } from '../paging.js';
import type { StoreRepository } from '../stores/ports.js';
import type { GroupConfig } from '../settings/journeys.js';
import type { Employee } from './schema.js';
import type { EmployeeFilters } from './requests.js';

/** Another edit of the same employee's stores or groups got in first: nothing was changed. */
export class LinksChangedError extends Error {}

/** Where employees and their store links are kept: `shared/adapters/employee-repository.ts` implements it. */
export interface EmployeeRepository {
  nextId(tenantId: number): Promise<number>;
  /** Stores a new employee with its links to `employee.stores`; an `employee_id` in use is a DuplicateError. */
  insert(tenantId: number, employee: Employee): Promise<void>;
  get(tenantId: number, id: number): Promise<Employee | undefined>;
  getMany(tenantId: number, ids: number[]): Promise<Employee[]>;
  findByExternalId(tenantId: number, employeeId: string): Promise<Employee | undefined>;
  /** The employee after the change; NotFoundError when it does not exist. */
  update(tenantId: number, id: number, edit: { changes: Partial<Employee>; now: string }): Promise<Employee>;
  /**
   * A page of employees. With `storeId` it is that store's employees and the other filters are not applied
   * (`storeOnly`); without, the filters are.
   */
  list(tenantId: number, filters: EmployeeFilters, storeId: number | undefined): Promise<Found<Employee> & { storeOnly: boolean }>;
  /** Sets the employee's stores (and their links) to `after` if they are still `before`; else LinksChangedError. */
  replaceStores(tenantId: number, employeeId: number, change: LinksChange): Promise<void>;
  /** Sets the employee's groups to `after` if they are still `before`; else LinksChangedError. */
  replaceGroups(tenantId: number, employeeId: number, change: LinksChange): Promise<void>;
}

/** A change of an employee's links (its stores' or groups' ids) from what was read, `before`, to `after`, at `now`. */
export interface LinksChange {
  before: number[];
  after: number[];
  now: string;
}

export interface EmployeePorts {
  employees: EmployeeRepository;
  stores: Pick<StoreRepository, 'findByExternalId' | 'getMany'>;
  /** The tenant's groups among `ids`. */
  groups(tenantId: number, ids: number[]): Promise<GroupConfig[]>;
}
