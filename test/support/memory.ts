/**
 * In-memory implementations of the domain's storage ports, for the unit tier: the real services run over them with
 * no table, no queue and no Java. They keep the ports' promises that the rules depend on (external codes unique,
 * a request key stored once, the repeat window) and nothing of the table's shape.
 */
import { SIGN_IN_PATH } from '../../shared/session/paths.js';
import type { AnswerStore, StoredAnswer } from '../../shared/answers/ports.js';
import type { ThemeCounterRow, ThemeCounters, ThemeDimension } from '../../shared/themes/report.js';
import type { CaseSelection, CaseStore, CaseUsers } from '../../shared/cases/ports.js';
import type { CaseRecord, CaseStatus } from '../../shared/cases/record.js';
import { CLAIM_SECONDS, type EscalationClaims, type EscalationRule } from '../../shared/cases/overdue.js';
import { inScope } from '../../shared/cases/reads.js';
import type { Customer } from '../../shared/customers/schema.js';
import type { CustomerRepository } from '../../shared/customers/ports.js';
import type { Employee } from '../../shared/employees/schema.js';
import type { EmployeeRepository } from '../../shared/employees/ports.js';
import { DuplicateError, NotFoundError, ValidationError } from '../../shared/errors.js';
import type { EventPublisher, TenantEvent } from '../../shared/events/ports.js';
import type { Store } from '../../shared/stores/schema.js';
import type { StoreRepository } from '../../shared/stores/ports.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import type { DataSubjects } from '../../shared/privacy/ports.js';
import type { CounterRow, ResultCounters } from '../../shared/results/ports.js';
import type { CounterDelta, Tally } from '../../shared/results/tally.js';
import type { UserScope } from '../../shared/tenants/config-schema.js';
import type { Timed, TimerScheduler } from '../../shared/timers/timers.js';
import type { SignInDirectory } from '../../shared/access/tenant-users.js';
import type { AuditEntry, AuditLog } from '../../shared/audit/log.js';
import type { ApiKeyRecord, UserRecord } from '../../shared/access/ports.js';
import type { TenantRepository } from '../../shared/tenants/ports.js';
import type { Dispatcher, Reference, ReferenceReader, RequestRecord, TransactionRepository } from '../../shared/transactions/ports.js';
import { transactionIdFor } from '../../shared/transactions/request-key.js';
import { invitations, type InvitationMessage, type InvitationPorts } from '../../shared/access/invitation.js';

const copy = <T>(value: T): T => structuredClone(value);

/** Entities of one kind by tenant and id, their external codes unique per tenant. */
function memoryEntities<T extends { id: number; updated_at: string }>(kind: string, codeField: keyof T & string) {
  const rows = new Map<string, T>();
  const codes = new Map<string, number>();
  const lastId = new Map<number, number>();
  const at = (tenantId: number, id: number) => `${tenantId}#${id}`;
  const get = async (tenantId: number, id: number) => copy(rows.get(at(tenantId, id)));
  return {
    rows,
    async nextId(tenantId: number) {
      const id = Math.max(lastId.get(tenantId) ?? 0, ...[...rows.values()].map((row) => row.id)) + 1;
      lastId.set(tenantId, id);
      return id;
    },
    async insert(tenantId: number, value: T) {
      const code = value[codeField];
      if (code !== null && code !== undefined) {
        if (codes.has(`${tenantId}#${String(code)}`)) throw DuplicateError.of(kind, codeField);
        codes.set(`${tenantId}#${String(code)}`, value.id);
      }
      rows.set(at(tenantId, value.id), copy(value));
    },
    get,
    async getMany(tenantId: number, ids: number[]) {
      return ids.flatMap((id) => (rows.has(at(tenantId, id)) ? [copy(rows.get(at(tenantId, id))!)] : []));
    },
    async findByExternalId(tenantId: number, code: string) {
      const id = codes.get(`${tenantId}#${code}`);
      return id === undefined ? undefined : get(tenantId, id);
    },
    async update(tenantId: number, id: number, { changes, now }: { changes: Partial<T>; now: string }) {
      const current = rows.get(at(tenantId, id));
      if (!current) throw new NotFoundError(`${kind} ${id} not found.`);
      const next = { ...current, ...changes, updated_at: now };
      rows.set(at(tenantId, id), next);
      return copy(next);
    },
    async list(tenantId: number) {
      return { items: [...rows.entries()].filter(([key]) => key.startsWith(`${tenantId}#`)).map(([, row]) => copy(row)), nextCursor: null };
    },
  };
}

export const memoryStores = (): StoreRepository & { rows: Map<string, Store> } => memoryEntities<Store>('store', 'store_id');
export const memoryCustomers = (): CustomerRepository & { rows: Map<string, Customer> } =>
  memoryEntities<Customer>('customer', 'client_id');

export function memoryEmployees(): EmployeeRepository & { rows: Map<string, Employee> } {
  const entities = memoryEntities<Employee>('employee', 'employee_id');
  const replace =
    (field: 'stores' | 'groups') =>
    async (tenantId: number, id: number, { after, now }: { after: number[]; now: string }) => {
      await entities.update(tenantId, id, { changes: { [field]: after } as Partial<Employee>, now });
    };
  return {
    ...entities,
    list: async (tenantId) => ({ ...(await entities.list(tenantId)), storeOnly: false }),
    replaceStores: replace('stores'),
    replaceGroups: replace('groups'),
  };
}

/** Transactions by request key, each at the id its key derives; the repeat window's slots by customer and journey. */
export function memoryTransactions(): TransactionRepository & { byKey: Map<string, RequestRecord> } {
  const byKey = new Map<string, RequestRecord>();
  const slots = new Map<string, Date>();
  const key = (tenantId: number, requestKey: string) => `${tenantId}#${requestKey}`;
  return {
    byKey,
    async findByRequestKey(tenantId, requestKey) {
      return copy(byKey.get(key(tenantId, requestKey)));
    },
    async findById(tenantId, id) {
      for (const [k, stored] of byKey)
        if (k.startsWith(`${tenantId}#`) && stored.status === 'created' && stored.record.transaction.id === id) return copy(stored.record);
      return undefined;
    },
    async putCreated(tenantId, { requestKey, build }) {
      const held = byKey.get(key(tenantId, requestKey));
      if (held?.status === 'created') return { created: false, record: copy(held.record) };
      const record = build(transactionIdFor(requestKey));
      byKey.set(key(tenantId, requestKey), { status: 'created', record: copy(record) });
      return { created: true, record };
    },
    async putOutcome(tenantId, requestKey, { status, errors, receivedAt }) {
      if (byKey.get(key(tenantId, requestKey))?.status === 'created') return;
      byKey.set(key(tenantId, requestKey), { status, errors, receivedAt });
    },
    async claimSurveySlot(tenantId, { customerId, journeyId, windowDays, now }) {
      const slot = `${tenantId}#${customerId}#${journeyId}`;
      const last = slots.get(slot);
      if (last && now.getTime() - last.getTime() < windowDays * 86_400_000) return false;
      slots.set(slot, now);
      return true;
    },
  };
}

/** Reads what transactions name from the in-memory repositories, as the table adapter does in one or two round trips. */
export function memoryReferences(
  repositories: { stores: StoreRepository; employees: EmployeeRepository; customers: CustomerRepository },
  transactions: TransactionRepository,
): ReferenceReader {
  const resolve = async <T extends { id: number }>(
    repository: { get(t: number, id: number): Promise<T | undefined>; findByExternalId(t: number, code: string): Promise<T | undefined> },
    tenantId: number,
    ref: Reference,
  ) => {
    const byCode = ref.externalId !== undefined ? await repository.findByExternalId(tenantId, ref.externalId) : undefined;
    const found = ref.id !== undefined ? await repository.get(tenantId, ref.id) : byCode;
    const target = ref.id !== undefined && ref.externalId !== undefined ? (byCode?.id ?? null) : undefined;
    return { found, target };
  };
  return (requests) =>
    Promise.all(
      requests.map(async ({ tenantId, requestKey, store, employee, customer, fallbackStoreId }) => {
        const [s, e, c] = await Promise.all([
          resolve(repositories.stores, tenantId, store),
          resolve(repositories.employees, tenantId, employee),
          resolve(repositories.customers, tenantId, customer),
        ]);
        return {
          store: s.found,
          employee: e.found,
          customer: c.found,
          externalTargets: { store: s.target, employee: e.target, customer: c.target },
          existing: await transactions.findByRequestKey(tenantId, requestKey),
          fallbackStore: await repositories.stores.get(tenantId, fallbackStoreId),
        };
      }),
    );
}

/**
 * Keeps what would go to the survey dispatch queue. `refuses` names the messages the queue does not take: `send`
 * throws for them, and `sendBatch` answers their positions (as SendMessageBatch's failed entries).
 */
export function memoryDispatcher(refuses: (message: DispatchMessage) => boolean = () => false): Dispatcher & { sent: DispatchMessage[] } {
  const sent: DispatchMessage[] = [];
  return {
    sent,
    send: async (message) => {
      if (refuses(message)) throw new Error('The queue refused the message.');
      sent.push(copy(message));
    },
    sendBatch: async (messages) => {
      const unsent: number[] = [];
      messages.forEach((message, i) => (refuses(message) ? unsent.push(i) : sent.push(copy(message))));
      return unsent;
    },
  };
}

/** Keeps the events published, by tenant, in order. */
export function memoryEvents(): EventPublisher & { published: { tenantId: number; event: TenantEvent }[] } {
  const published: { tenantId: number; event: TenantEvent }[] = [];
  return {
    published,
    async publish(tenantId, event) {
      published.push(copy({ tenantId, event }));
    },
  };
}

/** Keeps the timers scheduled: each message with its due time (stamped on it, as the real scheduler does). */
export function memoryTimers<M extends Timed>(): TimerScheduler<M> & { scheduled: { message: M; dueAt: string }[] } {
  const scheduled: { message: M; dueAt: string }[] = [];
  return {
    scheduled,
    async schedule(message, dueAt) {
      scheduled.push(copy({ message: { ...message, dueAt: dueAt.toISOString() }, dueAt: dueAt.toISOString() }));
    },
  };
}

/**
 * Cases in memory, keeping the case store's promises: `open` writes once per transaction, `replace` only over the
 * version before and never over the alert's claim, a claim is taken by one caller and given back only by it, and the
 * list's order is open, in progress, closed; overdue first; then by due time and id. Counter deltas are kept, not
 * tallied.
 */
export function memoryCases(): CaseStore & { rows: Map<string, CaseRecord>; counters: CounterDelta[] } {
  const rows = new Map<string, CaseRecord>();
  const whatsApp = new Map<string, string | null>();
  const counters: CounterDelta[] = [];
  const at = (tenantId: number, id: number) => `${tenantId}#${id}`;
  const rank: Record<CaseStatus, number> = { open: 1, in_progress: 2, resolved: 3, closed_unresolved: 4 };
  const sortOf = (c: CaseRecord) => `${rank[c.status]}#${c.overdue ? 0 : 1}#${c.dueAt}#${String(c.id).padStart(12, '0')}`;
  const selected = (s: CaseSelection, c: CaseRecord) =>
    (!s.stores || s.stores.includes(c.storeId)) &&
    (!s.status || c.status === s.status) &&
    (s.overdue === undefined || c.overdue === s.overdue) &&
    (s.owner === undefined || c.owner === s.owner) &&
    (!s.from || c.openedAt.slice(0, 10) >= s.from) &&
    (!s.to || c.openedAt.slice(0, 10) <= s.to);
  return {
    rows,
    counters,
    async open(tenantId, record, deltas) {
      if (rows.has(at(tenantId, record.id))) return 'exists';
      const number = [...rows.keys()].filter((key) => key.startsWith(`${tenantId}#`)).length + 1;
      rows.set(at(tenantId, record.id), copy({ ...record, number }));
      counters.push(...copy(deltas));
      return copy({ ...record, number });
    },
    async find(tenantId, id) {
      return copy(rows.get(at(tenantId, id)));
    },
    async idOfNumber(tenantId, number) {
      return [...rows.entries()].find(([key, c]) => key.startsWith(`${tenantId}#`) && c.number === number)?.[1].id;
    },
    async replace(tenantId, next, deltas) {
      const current = rows.get(at(tenantId, next.id));
      if (!current || current.version !== next.version - 1) return false;
      rows.set(at(tenantId, next.id), { ...copy(next), alertedAt: current.alertedAt });
      counters.push(...copy(deltas));
      return true;
    },
    async claimAlert(tenantId, id, when) {
      const current = rows.get(at(tenantId, id));
      if (!current || current.alertedAt) return false;
      current.alertedAt = when;
      return true;
    },
    async releaseAlert(tenantId, id, when) {
      const current = rows.get(at(tenantId, id));
      if (current?.alertedAt === when) current.alertedAt = null;
    },
    async claimWhatsAppAlert(tenantId, id, { user, at: when }) {
      if (whatsApp.get(`${at(tenantId, id)}#${user}`)) return false;
      whatsApp.set(`${at(tenantId, id)}#${user}`, when);
      return true;
    },
    async releaseWhatsAppAlert(tenantId, id, { user, at: when }) {
      if (whatsApp.get(`${at(tenantId, id)}#${user}`) === when) whatsApp.set(`${at(tenantId, id)}#${user}`, null);
    },
    async list(selection) {
      let after: string | undefined;
      if (selection.cursor !== undefined) {
        const cursor = JSON.parse(selection.cursor) as { query: string; after: string };
        if (cursor.query !== selection.query)
          throw new ValidationError('Invalid cursor.', [{ path: 'cursor', message: 'is not one of this query' }]);
        after = cursor.after;
      }
      const matching = [...rows.entries()]
        .filter(
          ([key, c]) => key.startsWith(`${selection.tenantId}#`) && selected(selection, c) && (after === undefined || sortOf(c) > after),
        )
        .map(([, c]) => c)
        .sort((a, b) => (sortOf(a) < sortOf(b) ? -1 : 1));
      const page = matching.slice(0, selection.limit);
      const more = matching.length > selection.limit;
      return {
        // The list's indexes leave out the notes, the history and the alert's claim.
        cases: page.map((c) => ({ ...copy(c), notes: [], history: [], alertedAt: null })),
        nextCursor: more ? JSON.stringify({ query: selection.query, after: sortOf(page[page.length - 1]!) }) : null,
      };
    },
  };
}

/**
 * Escalation claims in memory, as the table keeps them: a claim is taken when there is none, or when a claim (never
 * sent) is older than CLAIM_SECONDS; `sent` records the escalation for good; `release` deletes only this caller's claim.
 */
export function memoryEscalations(): EscalationClaims & {
  rows: Map<string, { state: 'claimed' | 'sent'; claimedAt: string; rule?: EscalationRule; recipients?: number }>;
} {
  const rows = new Map<string, { state: 'claimed' | 'sent'; claimedAt: string; rule?: EscalationRule; recipients?: number }>();
  const at = (tenantId: number, caseId: number) => `${tenantId}#${caseId}`;
  return {
    rows,
    async claim(tenantId, caseId, now) {
      const held = rows.get(at(tenantId, caseId));
      const stale = new Date(now.getTime() - CLAIM_SECONDS * 1000).toISOString();
      if (held && !(held.state === 'claimed' && held.claimedAt < stale)) return false;
      rows.set(at(tenantId, caseId), { state: 'claimed', claimedAt: now.toISOString() });
      return true;
    },
    async sent(tenantId, caseId, { rule, recipients }) {
      const held = rows.get(at(tenantId, caseId));
      rows.set(at(tenantId, caseId), { claimedAt: held?.claimedAt ?? '', state: 'sent', rule, recipients });
    },
    async release(tenantId, caseId, now) {
      const held = rows.get(at(tenantId, caseId));
      if (held?.state === 'claimed' && held.claimedAt === now.toISOString()) rows.delete(at(tenantId, caseId));
    },
  };
}

/** A tenant's users as cases read them: by name, with a scope, perhaps disabled, perhaps a mobile. */
export function memoryCaseUsers(users: { name: string; scope: UserScope; phone?: string; disabled?: boolean }[]): CaseUsers {
  const held = (u: (typeof users)[number]) => ({ name: u.name, scope: copy(u.scope), disabled: u.disabled ?? false });
  return {
    async holding(_tenantId, storeId, regions) {
      const holds = (scope: UserScope) =>
        inScope(scope, storeId) || (scope !== 'all' && (scope.regions ?? []).some((r) => regions.includes(r)));
      return users.filter((u) => holds(u.scope)).map(held);
    },
    async phonesOf(_tenantId, names) {
      return new Map(users.filter((u) => u.phone && names.includes(u.name)).map((u) => [u.name, u.phone!]));
    },
    async find(_tenantId, name) {
      const user = users.find((u) => u.name === name);
      return user && held(user);
    },
  };
}

/** A transaction as the in-memory data subjects keep it: what it copied of its customer, and its erasure mark. */
export interface MemoryTransaction {
  id: number;
  customerId: number;
  customerName: string | null;
  contact: string | null;
  comment: string | null;
  respondent: string | null;
  params: Record<string, string>;
  /** A provider's words about a failed attempt (which may name the address). */
  detail: string | null;
  erasedAt?: string;
}

const personalOf = ({ customerName, contact, comment, respondent, params, detail }: MemoryTransaction) =>
  JSON.stringify([customerName, contact, comment, respondent, params, detail]);

/**
 * The erasure side of data subjects over in-memory transactions, keeping the table's promises: an answer is refused
 * once a transaction is marked erased (the answer path's condition), a provider's failure is written whatever the
 * mark (as the attempt's result is), and a strip holds only while the transaction holds what was read. `pauses`
 * run between the steps of an erasure, so that a test can land a write exactly there.
 */
export function memorySubjects(pauses: { beforeMark?: () => Promise<void>; beforeStrip?: (id: number) => Promise<void> } = {}) {
  const transactions = new Map<number, MemoryTransaction>();
  const customers = new Map<number, { erasedBy?: string }>();
  const calls = { marks: 0, strips: 0, refusedStrips: 0 };
  /** The transactions whose cases an erasure reached (cases themselves are not modelled here). */
  const erasedCases = new Set<number>();
  const subjects: Pick<DataSubjects, 'transactionsOf' | 'markErased' | 'copiesOf' | 'strip' | 'eraseCases' | 'eraseCustomer'> = {
    async transactionsOf(_tenantId, customerId) {
      return [...transactions.values()].filter((t) => t.customerId === customerId).map((t) => t.id);
    },
    async markErased(_tenantId, ids, mark) {
      await pauses.beforeMark?.();
      calls.marks += ids.length;
      for (const id of ids) {
        const t = transactions.get(id);
        if (t) t.erasedAt ??= mark.at;
      }
    },
    async copiesOf(_tenantId, ids) {
      return ids.flatMap((id) => {
        const t = transactions.get(id);
        if (!t) return [];
        const holdsCopies =
          [t.customerName, t.contact, t.comment, t.respondent, t.detail].some((v) => v !== null) || Object.keys(t.params).length > 0;
        return [
          {
            transactionId: id,
            marked: t.erasedAt !== undefined,
            holdsCopies,
            answeredAt: null,
            stored: copy(t) as unknown as Record<string, unknown>,
          },
        ];
      });
    },
    async strip(_tenantId, read) {
      await pauses.beforeStrip?.(read.transactionId);
      calls.strips++;
      const t = transactions.get(read.transactionId);
      if (!t || personalOf(t) !== personalOf(read.stored as unknown as MemoryTransaction)) {
        calls.refusedStrips++;
        return false;
      }
      Object.assign(t, { customerName: null, contact: null, comment: null, respondent: null, params: {}, detail: null });
      return true;
    },
    async eraseCases(_tenantId, ids) {
      for (const id of ids) erasedCases.add(id);
    },
    async eraseCustomer(_tenantId, customerId, mark) {
      const customer = customers.get(customerId) ?? {};
      customer.erasedBy ??= mark.requestId;
      customers.set(customerId, customer);
    },
  };
  return {
    subjects: subjects as DataSubjects,
    transactions,
    customers,
    erasedCases,
    calls,
    /** The answer path: written unless the transaction is marked erased. */
    answer(id: number, comment: string, respondent: string): 'written' | 'missing' {
      const t = transactions.get(id);
      if (!t || t.erasedAt) return 'missing';
      Object.assign(t, { comment, respondent });
      return 'written';
    },
    /** An attempt's failure, with the provider's words: written whatever the mark. */
    fail(id: number, detail: string) {
      transactions.get(id)!.detail = detail;
    },
  };
}

/**
 * Result counters in memory, keeping the port's promises: a tally adds each delta to its day counter (its month's
 * partition) and its month counter (its year's), a count once added stays (at 0 when taken back), and a read answers
 * one journey's dimension over one partition and grain, the counters whose ids start with the ones asked, in the
 * order the table's sort key gives them (ids as text, then the period).
 */
export function memoryCounters(): ResultCounters & { add(tenantId: number, tally: Tally): void } {
  const partitions = new Map<string, Map<string, CounterRow & { grain: 'day' | 'month' }>>();
  const order = (row: CounterRow) => `${row.ids.map((id) => `${id}#`).join('')}${row.period}`;
  return {
    add(tenantId, { journeyId, deltas }) {
      for (const delta of deltas)
        for (const grain of ['day', 'month'] as const) {
          const period = grain === 'day' ? delta.day : delta.day.slice(0, 7);
          const partition = `${tenantId}#${journeyId}#${grain === 'day' ? delta.day.slice(0, 7) : delta.day.slice(0, 4)}`;
          const rows = partitions.get(partition) ?? new Map();
          partitions.set(partition, rows);
          const id = `${grain}#${delta.dimension}#${delta.ids.join('#')}#${period}`;
          const row = rows.get(id) ?? { grain, dimension: delta.dimension, ids: [...delta.ids], period, counts: {} };
          for (const [name, value] of Object.entries(delta.add)) row.counts[name] = (row.counts[name] ?? 0) + value;
          rows.set(id, row);
        }
    },
    async read({ tenantId, journeyId, dimension, grain, partition, ids = [] }) {
      return [...(partitions.get(`${tenantId}#${journeyId}#${partition}`)?.values() ?? [])]
        .filter((row) => row.grain === grain && row.dimension === dimension && ids.every((id, i) => row.ids[i] === id))
        .sort((a, b) => (order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0))
        .map(({ dimension: d, ids: rowIds, period, counts }) => copy({ dimension: d, ids: rowIds, period, counts }));
    },
  };
}

type AccessRepository = Pick<
  TenantRepository,
  | 'insertApiKey'
  | 'listApiKeys'
  | 'findApiKeyById'
  | 'findApiKey'
  | 'markApiKeyRevoked'
  | 'rotateApiKey'
  | 'raiseConfigVersion'
  | 'findUserByName'
  | 'insertUser'
  | 'listUsers'
  | 'updateUser'
>;

/**
 * A tenant's keys and users in memory, keeping the table's promises: a key stored once by its hash, revoked once (its
 * first time stays), rotated only while neither revoked nor rotated (successor and mark together); a user's name held
 * once; an update sets only the fields given (a null phone removed) on a user that exists; the version raised by one.
 */
export function memoryAccess(): AccessRepository & { keys: Map<string, ApiKeyRecord>; versions: Map<number, number> } {
  const keys = new Map<string, ApiKeyRecord>();
  const users = new Map<string, UserRecord>();
  const versions = new Map<number, number>();
  const userAt = (tenantId: number, name: string) => `${tenantId}#${name}`;
  const withHash = ([hash, record]: [string, ApiKeyRecord]) => copy({ ...record, hash });
  return {
    keys,
    versions,
    async insertApiKey(hash, record) {
      if (keys.has(hash)) return false;
      keys.set(hash, copy(record));
      return true;
    },
    async listApiKeys(tenantId) {
      return [...keys.entries()].filter(([, k]) => k.tenantId === tenantId).map(withHash);
    },
    async findApiKeyById(tenantId, keyId) {
      const found = [...keys.entries()].find(([, k]) => k.tenantId === tenantId && k.keyId === keyId);
      return found && withHash(found);
    },
    async findApiKey(hash) {
      return copy(keys.get(hash));
    },
    async markApiKeyRevoked(hash, at) {
      const key = keys.get(hash);
      if (!key) return 'missing';
      if (key.revoked_at) return 'already';
      key.revoked_at = at;
      return 'revoked';
    },
    async rotateApiKey(hash, successor, expiresAt) {
      const key = keys.get(hash);
      if (!key || key.revoked_at || key.rotated_to || keys.has(successor.hash)) return false;
      keys.set(successor.hash, copy(successor.record));
      Object.assign(key, { expires_at: expiresAt, rotated_to: successor.record.keyId });
      return true;
    },
    async raiseConfigVersion(tenantId, { expected } = {}) {
      const current = versions.get(tenantId) ?? 1;
      if (expected !== undefined && expected !== current) return undefined;
      versions.set(tenantId, current + 1);
      return current + 1;
    },
    async findUserByName(tenantId, name) {
      return copy(users.get(userAt(tenantId, name)));
    },
    async insertUser(tenantId, user) {
      if (users.has(userAt(tenantId, user.name))) return false;
      users.set(userAt(tenantId, user.name), copy(user));
      return true;
    },
    async listUsers(tenantId) {
      return [...users.entries()].filter(([k]) => k.startsWith(`${tenantId}#`)).map(([, u]) => copy(u));
    },
    async updateUser(tenantId, tokenHash, fields) {
      const user = [...users.entries()].find(([k, u]) => k.startsWith(`${tenantId}#`) && u.tokenHash === tokenHash)?.[1];
      if (!user) throw new Error('The conditional request failed: no such user.');
      const { phone, ...rest } = fields;
      Object.assign(user, Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)));
      if (phone === null) delete user.phone;
      else if (phone !== undefined) user.phone = phone;
      return copy(user);
    },
  };
}

/** The audit log in memory: entries by tenant, listed newest first. */
export function memoryAudit(): AuditLog & { entries: Map<number, AuditEntry[]> } {
  const entries = new Map<number, AuditEntry[]>();
  return {
    entries,
    async record(tenantId, entry) {
      entries.set(tenantId, [...(entries.get(tenantId) ?? []), copy(entry)]);
    },
    async list(tenantId, { from = '', to = '\uffff', limit }) {
      const data = (entries.get(tenantId) ?? []).filter((e) => e.at >= from && e.at <= to).reverse();
      return { data: copy(data.slice(0, limit)), next_cursor: null };
    },
  };
}

/**
 * The identity provider in memory: each address's sign-in bound to one tenant, enabled or not, with its temporary
 * password until its user signs in (`signedIn`).
 */
export function memorySignIn(): SignInDirectory & {
  accounts: Map<string, { tenantId: number; enabled: boolean; password: string; signedIn?: boolean }>;
} {
  const accounts = new Map<string, { tenantId: number; enabled: boolean; password: string; signedIn?: boolean }>();
  return {
    accounts,
    async invite({ email, tenantId, temporaryPassword }) {
      const held = accounts.get(email);
      if (held) return held.tenantId === tenantId ? 'exists' : 'elsewhere';
      accounts.set(email, { tenantId, enabled: true, password: temporaryPassword });
      return 'created';
    },
    async renewTemporaryPassword({ email, tenantId, temporaryPassword }) {
      const held = accounts.get(email);
      if (held?.tenantId !== tenantId) return 'missing';
      if (held.signedIn) return 'signed-in';
      held.password = temporaryPassword;
      return 'renewed';
    },
    async setEnabled({ email, tenantId }, enabled) {
      const held = accounts.get(email);
      if (held?.tenantId === tenantId) held.enabled = enabled;
    },
  };
}

/** A tenant's invitations in memory: the tenant's settings as given, each e-mail kept in `sent`. */
export function memoryInvitations(settings: Awaited<ReturnType<InvitationPorts['settings']>>) {
  const sent: InvitationMessage[] = [];
  return {
    sent,
    ...invitations({
      settings: async () => settings,
      email: async (message) => void sent.push(message),
      baseUrl: () => 'https://example.test',
      signInPath: SIGN_IN_PATH,
    }),
  };
}

/**
 * The theme counters by day (a month's days, or a year's months summed) and the answers listed by theme, for the digest's
 * themes: what the analysis writes, kept as the ports read it.
 */
export function memoryThemes(): {
  counters: ThemeCounters;
  answers: Pick<AnswerStore, 'list'>;
  /** One analysed answer: counted on its day under each theme (journey and store cells), and listed. */
  add(tenantId: number, answer: StoredAnswer, bucket: string, aspect?: 'negative' | 'positive'): void;
} {
  const cells: {
    tenantId: number;
    dimension: ThemeDimension;
    ids: number[];
    day: string;
    theme: string;
    counts: Record<string, number>;
  }[] = [];
  const listed: { tenantId: number; answer: StoredAnswer }[] = [];
  return {
    counters: {
      async read({ tenantId, dimension, ids, grain, partition }) {
        const rows = new Map<string, ThemeCounterRow>();
        for (const cell of cells) {
          if (cell.tenantId !== tenantId || cell.dimension !== dimension || cell.ids.join() !== ids.join()) continue;
          if (!cell.day.startsWith(partition)) continue;
          const period = grain === 'day' ? cell.day : cell.day.slice(0, 7);
          const row = rows.get(`${cell.theme}#${period}`) ?? { theme: cell.theme, period, counts: {} };
          for (const [name, n] of Object.entries(cell.counts)) row.counts[name] = (row.counts[name] ?? 0) + n;
          rows.set(`${cell.theme}#${period}`, row);
        }
        return [...rows.values()];
      },
    },
    answers: {
      async list(selection) {
        const answers = listed
          .filter(({ tenantId }) => tenantId === selection.tenantId)
          .map(({ answer }) => answer)
          .filter((a) => !selection.stores || selection.stores.includes(a.storeId))
          .filter((a) => a.answeredAt.slice(0, 10) >= selection.from && a.answeredAt.slice(0, 10) <= selection.to)
          .filter((a) => selection.theme === undefined || a.themes?.includes(selection.theme))
          .filter(
            (a) =>
              selection.aspect === undefined ||
              a.aspects?.some((aspect) => aspect.theme === selection.theme && aspect.sentiment === selection.aspect),
          )
          .filter(
            (a) =>
              !selection.journeys ||
              selection.journeys.some((j) => j.id === a.journeyId && (!j.scores || (a.score >= j.scores.min && a.score <= j.scores.max))),
          )
          .sort((a, b) => b.answeredAt.localeCompare(a.answeredAt));
        return { answers: copy(answers.slice(0, selection.limit)), nextCursor: answers.length > selection.limit ? 'more' : null };
      },
    },
    add(tenantId, answer, bucket, aspect) {
      const day = answer.answeredAt.slice(0, 10);
      const polarity = new Map(answer.aspects?.map((aspect) => [aspect.theme, aspect.sentiment]));
      for (const theme of answer.themes ?? []) {
        const counts: Record<string, number> = { comments: 1, [bucket]: 1, score_sum: answer.score };
        // A test may say the polarity of every theme of the answer; otherwise each theme's is the answer's own.
        const sentiment = aspect ?? polarity.get(theme);
        if (sentiment) counts[`aspect_${sentiment}`] = 1;
        cells.push({ tenantId, dimension: 'journey', ids: [answer.journeyId], day, theme, counts });
        cells.push({ tenantId, dimension: 'storeJourney', ids: [answer.storeId, answer.journeyId], day, theme, counts });
      }
      listed.push({ tenantId, answer: copy(answer) });
    },
  };
}
