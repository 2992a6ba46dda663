import { beforeAll, describe, expect, it } from 'vitest';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { caseItem, caseStore, indexCaseNumbers, indexCases } from '../../shared/adapters/case-repository.js';
import { db } from '../../shared/adapters/dynamodb.js';
import { keys } from '../../shared/keys.js';
import type { CaseRecord } from '../../shared/cases/record.js';
import { newTenant, type TestTenant } from '../support/tenant.js';

/** The case repository against DynamoDB Local: one case per transaction, one winner per version, the list's order. */
let tenant: TestTenant;
beforeAll(async () => {
  tenant = await newTenant();
});

const aCase = (id: number, over: Partial<CaseRecord> = {}): CaseRecord => ({
  id,
  transactionCode: null,
  number: null,
  journeyId: 1,
  storeId: 1,
  employeeId: 1,
  customerId: 1,
  customerName: 'Maria',
  score: 2,
  comment: 'demorou',
  answeredAt: '2026-11-23T10:00:00.000Z',
  answerVersion: 1,
  openedAt: '2026-11-23T10:00:01.000Z',
  dueAt: '2026-11-24T10:00:01.000Z',
  overdue: false,
  overdueAt: null,
  owner: 'gerente@demo.local',
  status: 'open',
  firstContactAt: null,
  closedAt: null,
  rootCause: null,
  notes: [],
  history: [{ at: '2026-11-23T10:00:01.000Z', by: 'system', action: 'opened' }],
  alertedAt: null,
  recovery: null,
  erased: false,
  version: 1,
  ...over,
});

const page = (stores: number[] | undefined, status?: CaseRecord['status'], overdue?: boolean, cursor?: string, limit = 50) =>
  caseStore.list({
    tenantId: tenant.tenantId,
    ...(stores ? { stores } : {}),
    ...(status ? { status } : {}),
    ...(overdue !== undefined ? { overdue } : {}),
    limit,
    ...(cursor ? { cursor } : {}),
    query: JSON.stringify([stores, status, overdue]),
  });

describe('case repository', () => {
  it('gives cases opened at once distinct consecutive short numbers, and none to a case opened twice', async () => {
    const own = await newTenant();
    const ids = Array.from({ length: 12 }, (_, i) => 500 + i);
    const opened = await Promise.all([...ids, 500, 501].map((id) => caseStore.open(own.tenantId, aCase(id), [])));
    expect(opened.filter((o) => o === 'exists')).toHaveLength(2);
    const stored = await Promise.all(ids.map((id) => caseStore.find(own.tenantId, id)));
    const numbers = stored.map((c) => c!.number!).sort((a, b) => a - b);
    expect(numbers).toEqual(ids.map((_, i) => i + 1));
    // What `open` answered is what was stored.
    for (const o of opened) if (o !== 'exists') expect(stored.find((c) => c!.id === o.id)!.number).toBe(o.number);
  }, 60_000);

  it('opens one case per transaction however many openers race', async () => {
    const outcomes = await Promise.all(Array.from({ length: 8 }, () => caseStore.open(tenant.tenantId, aCase(101), [])));
    expect(outcomes.filter((o) => o !== 'exists')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'exists')).toHaveLength(7);
    expect(await caseStore.find(tenant.tenantId, 101)).toMatchObject({ id: 101, status: 'open', version: 1 });
  });

  it('writes one of two changes made from the same version, and keeps the alert claim made meanwhile', async () => {
    await caseStore.open(tenant.tenantId, aCase(102), []);
    expect(await caseStore.claimAlert(tenant.tenantId, 102, '2026-11-23T10:00:02.000Z')).toBe(true);
    expect(await caseStore.claimAlert(tenant.tenantId, 102, '2026-11-23T10:00:03.000Z')).toBe(false);
    const read = (await caseStore.find(tenant.tenantId, 102))!;
    const results = await Promise.all([
      caseStore.replace(tenant.tenantId, { ...read, status: 'in_progress', version: 2 }, []),
      caseStore.replace(tenant.tenantId, { ...read, status: 'closed_unresolved', version: 2 }, []),
    ]);
    expect(results.sort()).toEqual([false, true]);
    const after = (await caseStore.find(tenant.tenantId, 102))!;
    expect(after.version).toBe(2);
    expect(after.alertedAt).toBe('2026-11-23T10:00:02.000Z');
  });

  it("keeps the caller's code of the transaction, lists it, and reads null for a case stored before it was kept", async () => {
    await caseStore.open(tenant.tenantId, aCase(104, { storeId: 41, transactionCode: 'PDV-104' }), []);
    const { transactionCode: _, ...before } = caseItem(tenant.tenantId, aCase(105, { storeId: 41 }));
    await db().client.send(new PutCommand({ TableName: db().tableName, Item: before }));
    expect((await caseStore.find(tenant.tenantId, 104))?.transactionCode).toBe('PDV-104');
    expect((await caseStore.find(tenant.tenantId, 105))?.transactionCode).toBeNull();
    const listed = (await page([41])).cases.map((c) => [c.id, c.transactionCode]);
    expect(listed.sort()).toEqual([
      [104, 'PDV-104'],
      [105, null],
    ]);
  });

  it('gives back an alert claim only to the claim it names', async () => {
    await caseStore.open(tenant.tenantId, aCase(103), []);
    await caseStore.claimAlert(tenant.tenantId, 103, 'A');
    await caseStore.releaseAlert(tenant.tenantId, 103, 'B');
    expect((await caseStore.find(tenant.tenantId, 103))!.alertedAt).toBe('A');
    await caseStore.releaseAlert(tenant.tenantId, 103, 'A');
    expect((await caseStore.find(tenant.tenantId, 103))!.alertedAt).toBeNull();
    expect(await caseStore.claimAlert(tenant.tenantId, 103, 'C')).toBe(true);
  });

  it("lists a store's cases by status, overdue first then by due time, page by page, and the tenant's across shards", async () => {
    const base = 200;
    const made = [
      aCase(base + 1, { storeId: 7, dueAt: '2026-11-24T12:00:00.000Z' }),
      aCase(base + 2, { storeId: 7, dueAt: '2026-11-24T09:00:00.000Z' }),
      aCase(base + 3, { storeId: 7, dueAt: '2026-11-25T09:00:00.000Z', overdue: true }),
      aCase(base + 4, { storeId: 7, status: 'in_progress' }),
      aCase(base + 5, { storeId: 7, status: 'resolved' }),
      aCase(base + 6, { storeId: 8, dueAt: '2026-11-24T08:00:00.000Z' }),
    ];
    await Promise.all(made.map((c) => caseStore.open(tenant.tenantId, c, [])));

    const open = await page([7], 'open');
    expect(open.cases.map((c) => c.id)).toEqual([base + 3, base + 2, base + 1]);
    expect((await page([7], 'open', true)).cases.map((c) => c.id)).toEqual([base + 3]);
    expect((await page([7])).cases.map((c) => c.id)).toEqual([base + 3, base + 2, base + 1, base + 4, base + 5]);

    const first = await page([7], 'open', undefined, undefined, 2);
    expect(first.cases.map((c) => c.id)).toEqual([base + 3, base + 2]);
    const second = await page([7], 'open', undefined, first.nextCursor!, 2);
    expect(second.cases.map((c) => c.id)).toEqual([base + 1]);
    expect(second.nextCursor).toBeNull();

    const all = await page(undefined, 'open');
    const ids = all.cases.map((c) => c.id);
    expect(ids).toEqual(expect.arrayContaining([base + 1, base + 2, base + 3, base + 6]));
    expect(ids.indexOf(base + 3)).toBeLessThan(ids.indexOf(base + 6));
    expect(ids.indexOf(base + 6)).toBeLessThan(ids.indexOf(base + 2));
  });
});

describe('a case stored before a case had one owner', () => {
  /** A case as stored before issue 46: every user in scope as its owners, and no gsi14 entry. */
  const legacy = async (id: number, owners: string[]) => {
    const item: Record<string, unknown> = { ...caseItem(tenant.tenantId, aCase(id, { storeId: 9 })), owners };
    delete item.gsi14pk;
    delete item.gsi14sk;
    await db().client.send(new PutCommand({ TableName: db().tableName, Item: item }));
  };
  const byOwner = (owner: string | null) =>
    caseStore.list({ tenantId: tenant.tenantId, owner, stores: [9], limit: 50, query: JSON.stringify(['owner', owner]) });

  it('reads as its one person when its owners name exactly one, else unassigned, and is listed by owner once indexed', async () => {
    await legacy(901, ['demo-admin', 'demo-limited', 'gerente.loja1@demo.local', 'gerente@demo.local']);
    await legacy(902, ['demo-admin', 'gerente@demo.local']);
    expect((await caseStore.find(tenant.tenantId, 901))!.owner).toBeNull();
    expect((await caseStore.find(tenant.tenantId, 902))!.owner).toBe('gerente@demo.local');
    expect((await byOwner(null)).cases.map((c) => c.id)).toEqual([]);

    expect(await indexCases(tenant.tenantId)).toBeGreaterThanOrEqual(2);
    expect(await indexCases(tenant.tenantId)).toBe(0);

    expect((await byOwner(null)).cases.map((c) => [c.id, c.owner])).toEqual([[901, null]]);
    expect((await byOwner('gerente@demo.local')).cases.map((c) => [c.id, c.owner])).toEqual([[902, 'gerente@demo.local']]);
    // Indexed, it is stored as any case now: its owner as a list of none or one.
    const { Item } = await db().client.send(new GetCommand({ TableName: db().tableName, Key: keys.case(tenant.tenantId, 901) }));
    expect(Item!.owners).toEqual([]);
  });

  it('makes a case numbered before its number had an entry findable by its number, once (index-cases)', async () => {
    const own = await newTenant();
    const opened = await Promise.all([601, 602].map((id) => caseStore.open(own.tenantId, aCase(id), [])));
    const numbers = opened.map((c) => (c as CaseRecord).number!);
    // As a case opened before the entry existed: numbered, but not findable by its number.
    const { client, tableName } = db();
    await client.send(new DeleteCommand({ TableName: tableName, Key: keys.caseByNumber(own.tenantId, numbers[0]!) }));
    expect(await caseStore.idOfNumber(own.tenantId, numbers[0]!)).toBeUndefined();

    expect(await indexCaseNumbers(own.tenantId)).toBe(1);
    expect(await indexCaseNumbers(own.tenantId)).toBe(0);

    expect(await caseStore.idOfNumber(own.tenantId, numbers[0]!)).toBe(601);
    expect(await caseStore.idOfNumber(own.tenantId, numbers[1]!)).toBe(602);
  });
});
