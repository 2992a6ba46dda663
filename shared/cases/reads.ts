import { periodProblems } from '../dates.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { UserScope } from '../access/user-scope.js';
import type { Settings } from '../settings/settings.js';
import { regionLimit } from '../regions.js';
import { slugOf } from './case-event.js';
import type { CasePorts, CaseSelection } from './ports.js';
import type { CaseRecord } from './record.js';
import type { CaseBody } from './bodies.js';
import { caseBody, type CasesQuery } from './schema.js';

/** Who acts on a case through the API or the workspace: a user, with the scope its token or session carries. */
export interface CaseActor {
  name: string;
  scope: UserScope;
}

export const inScope = (scope: UserScope, storeId: number) => scope === 'all' || scope.stores.includes(storeId);
const notFound = (id: number) => new NotFoundError(`Case ${id} not found.`);

/** The case, when the scope holds its store; a case of a store outside it is as absent as one that does not exist (as the answers are). */
export async function visibleCase(
  cases: CasePorts['cases'],
  tenantId: number,
  { id, scope }: { id: number; scope: UserScope },
): Promise<CaseRecord> {
  const found = await cases.find(tenantId, id);
  if (!found || !inScope(scope, found.storeId)) throw notFound(id);
  return found;
}

/** What reads cases (the list, one case, its customer's contact): a function that only reads bundles nothing else. */
export function caseReads(ports: Pick<CasePorts, 'cases' | 'settings' | 'contacts'>) {
  const { cases, settings } = ports;
  const visible = (tenantId: number, id: number, scope: UserScope) => visibleCase(cases, tenantId, { id, scope });

  /**
   * GET /public/cases: a page of the cases the user may see (`owner`: their own with `me`, the unassigned with `none`),
   * and the customers it shows by name or comment.
   */
  async function list(
    tenantId: number,
    query: CasesQuery,
    { name, scope }: CaseActor,
  ): Promise<{ body: { data: CaseBody[]; limit: number; next_cursor: string | null }; shownCustomers: number[] }> {
    if (query.number !== undefined) {
      const [found, config] = await Promise.all([byNumber(tenantId, query, scope), settings(tenantId)]);
      return listed({ found, config, limit: query.limit, nextCursor: null });
    }
    const problems = query.from && query.to ? periodProblems(query.from, query.to) : [];
    if (problems.length) throw new ValidationError('Invalid case filters.', problems);
    const limited = scope === 'all' ? undefined : scope.stores;
    // The configuration is read only for a region filter (its stores and their child regions').
    const allowed = query.region === undefined ? limited : regionLimit(limited, (await settings(tenantId)).regions ?? [], query.region);
    if (query.store !== undefined && allowed && !allowed.includes(query.store)) throw new NotFoundError('No such store.');
    const stores = query.store !== undefined ? [query.store] : allowed;
    const overdue = query.overdue === undefined ? undefined : query.overdue === 'true';
    const owner = query.owner === 'me' ? name : query.owner === 'none' ? null : query.owner;
    const selection: CaseSelection = {
      tenantId,
      ...(stores ? { stores } : {}),
      ...(query.status ? { status: query.status } : {}),
      ...(overdue !== undefined ? { overdue } : {}),
      ...(owner !== undefined ? { owner } : {}),
      ...(query.from ? { from: query.from } : {}),
      ...(query.to ? { to: query.to } : {}),
      limit: query.limit,
      ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
      // The cursor holds to the filters and the scope it was given under.
      query: JSON.stringify([
        'cases',
        tenantId,
        stores ?? 'all',
        query.status ?? null,
        overdue ?? null,
        query.from ?? null,
        query.to ?? null,
        ...(owner !== undefined ? [owner] : []),
      ]),
    };
    const [{ cases: found, nextCursor }, config] = await Promise.all([cases.list(selection), settings(tenantId)]);
    return listed({ found, config, limit: query.limit, nextCursor });
  }

  /** A page of these cases, and the customers it shows by name or comment. */
  function listed({
    found,
    config,
    limit,
    nextCursor,
  }: {
    found: CaseRecord[];
    config: Settings;
    limit: number;
    nextCursor: string | null;
  }) {
    const data = found.map((c) => caseBody(c, slugOf(config, c.journeyId)));
    return {
      body: { data, limit, next_cursor: nextCursor },
      shownCustomers: [...new Set(data.filter((c) => c.customer.name !== null || c.comment !== null).map((c) => c.customer.id))],
    };
  }

  /** `?number=`: the tenant's case of that short number, when the user's scope holds its store (else none, as absent). */
  async function byNumber(tenantId: number, query: CasesQuery, scope: UserScope): Promise<CaseRecord[]> {
    const others = Object.keys(query).filter((key) => key !== 'number' && key !== 'limit');
    if (others.length)
      throw new ValidationError(
        'Invalid case filters.',
        others.map((path) => ({ path, message: 'must not be given with number (a case number names one case)' })),
      );
    const id = await cases.idOfNumber(tenantId, query.number!);
    const found = id === undefined ? undefined : await cases.find(tenantId, id);
    return found && inScope(scope, found.storeId) ? [found] : [];
  }

  /** GET /public/cases/{id}. */
  async function get(tenantId: number, id: number, scope: UserScope): Promise<CaseBody> {
    const [found, config] = await Promise.all([visible(tenantId, id, scope), settings(tenantId)]);
    return caseBody(found, slugOf(config, found.journeyId));
  }

  /**
   * POST /public/cases/{id}/contact: the customer's phone and e-mail address as the customer record holds them now,
   * for the manager to call or write (the handler records the read in the access log before answering). Nulls once
   * the customer was erased.
   */
  async function revealContact(tenantId: number, id: number, actor: CaseActor) {
    const found = await visible(tenantId, id, actor.scope);
    const contact = found.erased ? undefined : await ports.contacts?.of(tenantId, found.customerId);
    return {
      customerId: found.customerId,
      body: {
        id,
        customer: { id: found.customerId, name: contact?.name ?? null, phone: contact?.phone ?? null, email: contact?.email ?? null },
      },
    };
  }

  return { list, get, revealContact };
}
