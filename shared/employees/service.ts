import { ConcurrentEditError, ForbiddenError, NotFoundError, ValidationError } from '../errors.js';
import { normaliseName } from '../text.js';
import type { ListBody } from '../paging.js';
import type { Store } from '../stores/schema.js';
import type { UserScope } from '../access/user-scope.js';
import type { GroupConfig } from '../settings/journeys.js';
import { LinksChangedError, type EmployeePorts } from './ports.js';
import type { Employee } from './schema.js';
import type { CreateEmployeeInput, EmployeeChanges, EmployeeFilters } from './requests.js';

/** DynamoDB transactions hold at most 100 items: the employee plus the links that change. */
export const MAX_LINK_CHANGES = 99;

/** Employees and their stores and groups, through their repository. */
export function employeeService({ employees, stores, groups }: EmployeePorts) {
  /** The internal id of the store with an external code; `path` names the field for the error. */
  async function storeIdOf(tenantId: number, code: string, path: string): Promise<number> {
    const store = await stores.findByExternalId(tenantId, code);
    if (!store) throw new ValidationError(`No store has the code "${code}".`, [{ path, message: 'is not the store_id of any store' }]);
    return store.id;
  }

  async function createEmployee(tenantId: number, input: CreateEmployeeInput): Promise<Employee> {
    const mainStore = input.store_id ? await storeIdOf(tenantId, input.store_id, 'store_id') : undefined;
    const id = await employees.nextId(tenantId);
    const now = new Date().toISOString();
    const employee: Employee = {
      id,
      employee_id: input.employee_id ?? null,
      name: input.name,
      email: input.email ?? null,
      store_id: input.store_id ?? null,
      status: input.status,
      stores: mainStore ? [mainStore] : [],
      groups: [],
      created_at: now,
      updated_at: now,
    };
    await employees.insert(tenantId, employee);
    return employee;
  }

  async function getEmployee(tenantId: number, id: number): Promise<Employee> {
    const employee = await employees.get(tenantId, id);
    if (!employee) throw new NotFoundError(`Employee ${id} not found.`);
    return employee;
  }

  /** Changing `store_id` names another main store (which must exist); the store links change through PUT .../stores. */
  async function editEmployee(tenantId: number, id: number, changes: EmployeeChanges): Promise<Employee> {
    if (changes.store_id) await storeIdOf(tenantId, changes.store_id, 'store_id');
    return employees.update(tenantId, id, { changes, now: new Date().toISOString() });
  }

  const deactivateEmployee = (tenantId: number, id: number): Promise<Employee> =>
    employees.update(tenantId, id, { changes: { status: 'inactive' }, now: new Date().toISOString() });

  async function listEmployees(tenantId: number, filters: EmployeeFilters): Promise<ListBody<Employee>> {
    const body = (data: Employee[], next: string | null): ListBody<Employee> => ({
      data,
      page: filters.page,
      limit: filters.limit,
      next_cursor: next,
    });
    const storeFilter = filters.store ?? filters.store_id;
    let storeId = storeFilter;
    if (filters.external_store_id !== undefined) {
      const found = (await stores.findByExternalId(tenantId, filters.external_store_id))?.id;
      if (found === undefined || (storeFilter !== undefined && found !== storeFilter)) return body([], null);
      storeId = found;
    }
    if (filters.id !== undefined) {
      const employee = await employees.get(tenantId, filters.id);
      return body(employee && matches(employee, filters, storeId) ? [employee] : [], null);
    }
    const { items, nextCursor, storeOnly } = await employees.list(tenantId, filters, storeId);
    return body(storeOnly ? items.filter((e) => matches(e, filters, storeId)) : items, nextCursor);
  }

  // ---- Relations ----------------------------------------------------------------------------------------------

  const employeeStores = async (tenantId: number, id: number): Promise<Store[]> =>
    stores.getMany(tenantId, (await getEmployee(tenantId, id)).stores);

  const employeeGroups = async (tenantId: number, id: number): Promise<GroupConfig[]> =>
    groups(tenantId, (await getEmployee(tenantId, id)).groups);

  type Relation = 'stores' | 'groups';

  /**
   * Replaces an employee's stores or groups with `wanted`. The user must have access to every id added or removed
   * (else 401, nothing changed); every id added must exist (else 404); the change is all or nothing, retried when
   * another edit of the same employee got in first.
   */
  async function replaceRelation(
    tenantId: number,
    { id, relation, wanted, scope }: { id: number; relation: Relation; wanted: number[]; scope: UserScope },
  ): Promise<Store[] | GroupConfig[]> {
    for (let attempt = 1; ; attempt++) {
      const employee = await getEmployee(tenantId, id);
      const before = employee[relation];
      const changed = [...wanted.filter((x) => !before.includes(x)), ...before.filter((x) => !wanted.includes(x))];
      const allowed = scope === 'all' ? undefined : scope[relation];
      const denied = allowed ? changed.filter((x) => !allowed.includes(x)) : [];
      if (denied.length) throw new ForbiddenError(`The user token has no access to ${relation} ${denied.join(', ')}.`);
      if (changed.length > MAX_LINK_CHANGES) {
        throw new ValidationError(`At most ${MAX_LINK_CHANGES} links may change in one request.`, [
          { path: relation, message: `changes ${changed.length} links; send at most ${MAX_LINK_CHANGES} changes at a time` },
        ]);
      }
      const found = relation === 'stores' ? await stores.getMany(tenantId, wanted) : await groups(tenantId, wanted);
      const missing = wanted.filter((x) => !found.some((item) => item.id === x));
      if (missing.length) throw new NotFoundError(`No ${relation === 'stores' ? 'store' : 'group'} with id ${missing.join(', ')}.`);
      try {
        const now = new Date().toISOString();
        if (relation === 'stores') await employees.replaceStores(tenantId, id, { before, after: wanted, now });
        else await employees.replaceGroups(tenantId, id, { before, after: wanted, now });
        return found;
      } catch (error) {
        if (!(error instanceof LinksChangedError)) throw error;
        if (attempt === 3) throw new ConcurrentEditError(`Employee ${id} is being edited by another request; try again.`);
      }
    }
  }

  return {
    createEmployee,
    getEmployee,
    editEmployee,
    deactivateEmployee,
    listEmployees,
    employeeStores,
    employeeGroups,
    replaceRelation,
  };
}

export type EmployeeService = ReturnType<typeof employeeService>;

/** The filters applied in code to employees read through store links or by id. */
function matches(employee: Employee, filters: EmployeeFilters, storeId: number | undefined): boolean {
  return (
    (filters.name === undefined || normaliseName(employee.name).startsWith(normaliseName(filters.name))) &&
    (filters.email === undefined || employee.email === filters.email) &&
    (filters.status === undefined || employee.status === filters.status) &&
    (storeId === undefined || employee.stores.includes(storeId))
  );
}
