import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { LinksChangedError, type EmployeeRepository, type LinksChange } from '../employees/ports.js';
import { Employee } from '../employees/schema.js';
import type { EmployeeFilters } from '../employees/requests.js';
import type { UserScope } from '../access/user-scope.js';
import { keys, padId } from '../keys.js';
import { normaliseName } from '../text.js';
import { inIndex, indexAttributes, TABLE } from '../table.js';
import {
  cancelledByCondition,
  db,
  isConditionFailure,
  nextId,
  queryPage,
  type Filter,
  type Item,
  type Page,
  type QuerySpec,
} from './dynamodb.js';
import { entityRepository, exactIndex } from './entity-repository.js';

const ENTITY = 'EMPLOYEE';

export const employees = entityRepository<Employee>({
  entity: ENTITY,
  parse: (item) => v.parse(Employee, item),
  externalId: 'employee_id',
  collection: true,
  derived: {
    status: exactIndex('gsi2', ENTITY, 'status'),
    name: (tenantId, id, name) => inIndex('gsi3', keys.byName(tenantId, ENTITY), keys.nameSort(normaliseName(name), id)),
    employee_id: exactIndex('gsi4', ENTITY, 'externalId'),
    email: exactIndex('gsi5', ENTITY, 'email'),
  },
});

/** The link item of an employee to a store; gsi2 lists a store's employees. */
export function storeLink(tenantId: number, employeeId: number, storeId: number): Item {
  return {
    ...keys.employeeStore(tenantId, employeeId, storeId),
    [TABLE.entityAttribute]: 'EMPLOYEE_STORE',
    ...inIndex('gsi2', keys.storeEmployees(tenantId, storeId), padId(employeeId)),
    employeeId,
    storeId,
  };
}

/**
 * Lists employees. A store filter reads that store's links (gsi2) and then the employees; otherwise the most
 * selective of email, name and status is the key condition and the rest filter.
 */
async function queryEmployees(
  tenantId: number,
  filters: EmployeeFilters,
  storeId: number | undefined,
): Promise<{ page: Page; viaLinks: boolean }> {
  const { name, email, status } = filters;
  const nameFilter: Filter[] = name ? [{ attribute: indexAttributes('gsi3').sortKey, beginsWith: normaliseName(name) }] : [];
  const emailFilter: Filter[] = email ? [{ attribute: 'email', equals: email }] : [];
  const statusFilter: Filter[] = status ? [{ attribute: 'status', equals: status }] : [];
  let spec: QuerySpec;
  if (storeId !== undefined) spec = { index: 'gsi2', partition: keys.storeEmployees(tenantId, storeId) };
  else if (email)
    spec = {
      index: 'gsi5',
      partition: keys.byValue(tenantId, { entity: ENTITY, field: 'email', value: email }),
      filters: [...nameFilter, ...statusFilter],
    };
  else if (name)
    spec = {
      index: 'gsi3',
      partition: keys.byName(tenantId, ENTITY),
      sortBeginsWith: normaliseName(name),
      filters: [...emailFilter, ...statusFilter],
    };
  else if (status) spec = { index: 'gsi2', partition: keys.byStatus(tenantId, ENTITY, status) };
  else spec = { index: 'gsi1', partition: keys.collection(tenantId, ENTITY) };
  return { page: await queryPage(db(), spec, filters), viaLinks: storeId !== undefined };
}

/**
 * Replaces an employee's store links atomically: the employee's `stores` and the link items change together, and
 * only if `stores` is still what the caller read (otherwise LinksChangedError, and nothing changed).
 */
async function replaceStoreLinks(tenantId: number, employeeId: number, change: LinksChange): Promise<void> {
  const { before, after } = change;
  const { client, tableName } = db();
  const added = after.filter((id) => !before.includes(id));
  const removed = before.filter((id) => !after.includes(id));
  try {
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { Update: relationUpdate(tableName, tenantId, { employeeId, field: 'stores', ...change }) },
          ...added.map((storeId) => ({ Put: { TableName: tableName, Item: storeLink(tenantId, employeeId, storeId) } })),
          ...removed.map((storeId) => ({ Delete: { TableName: tableName, Key: keys.employeeStore(tenantId, employeeId, storeId) } })),
        ],
      }),
    );
  } catch (error) {
    if (cancelledByCondition(error, 0)) throw new LinksChangedError();
    throw error;
  }
}

async function replaceGroups(tenantId: number, employeeId: number, change: LinksChange): Promise<void> {
  const { client, tableName } = db();
  try {
    await client.send(new UpdateCommand(relationUpdate(tableName, tenantId, { employeeId, field: 'groups', ...change })));
  } catch (error) {
    if (isConditionFailure(error)) throw new LinksChangedError();
    throw error;
  }
}

function relationUpdate(
  tableName: string,
  tenantId: number,
  { employeeId, field, before, after, now }: LinksChange & { employeeId: number; field: 'stores' | 'groups' },
) {
  return {
    TableName: tableName,
    Key: keys.entity(tenantId, ENTITY, employeeId),
    UpdateExpression: 'SET #field = :after, updated_at = :now',
    ConditionExpression: '#field = :before',
    ExpressionAttributeNames: { '#field': field },
    ExpressionAttributeValues: { ':after': after, ':before': before, ':now': now },
  };
}

export const employeeRepository: EmployeeRepository = {
  ...employees,
  nextId: (tenantId) => nextId(db(), tenantId, { entity: ENTITY }),
  insert: (tenantId, employee) =>
    employees.insert(
      tenantId,
      employee,
      employee.stores.map((storeId) => ({ Put: { TableName: db().tableName, Item: storeLink(tenantId, employee.id, storeId) } })),
    ),
  async list(tenantId, filters, storeId) {
    const { page, viaLinks } = await queryEmployees(tenantId, filters, storeId);
    const items = viaLinks
      ? await employees.getMany(
          tenantId,
          page.items.map((link) => Number(link.employeeId)),
        )
      : page.items.map(employees.parse);
    return { items, nextCursor: page.nextCursor, storeOnly: viaLinks };
  },
  replaceStores: replaceStoreLinks,
  replaceGroups,
};

/** The names of a tenant's employees by id (the pages' names of employees). */
export const employeeNames = async (tenantId: number, ids: number[]): Promise<Map<number, string>> =>
  new Map((ids.length ? await employees.getMany(tenantId, ids) : []).map((employee) => [employee.id, employee.name]));

/**
 * The employees a user may choose from by name (the answers page's filter): those linked to their scope's stores (one
 * bounded read of each store's links), or every employee of the tenant for a user who sees them all; undefined when
 * there are more than `most`, as for the stores (storeChoices).
 */
export async function employeeChoices(tenantId: number, scope: UserScope, most: number): Promise<Map<number, string> | undefined> {
  if (scope === 'all') {
    const { items, nextCursor } = await employeeRepository.list(tenantId, { limit: most, page: 1 }, undefined);
    return nextCursor ? undefined : new Map(items.map((employee) => [employee.id, employee.name]));
  }
  if (scope.stores.length > most) return undefined;
  const links = await Promise.all(
    scope.stores.map((storeId) =>
      queryPage(db(), { index: 'gsi2', partition: keys.storeEmployees(tenantId, storeId) }, { limit: most, page: 1 }),
    ),
  );
  if (links.some((page) => page.nextCursor)) return undefined;
  const ids = new Set(links.flatMap((page) => page.items.map((link) => Number(link.employeeId))));
  return ids.size > most ? undefined : employeeNames(tenantId, [...ids]);
}
