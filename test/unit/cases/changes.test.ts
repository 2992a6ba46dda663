import { describe, expect, it } from 'vitest';
import { caseChanges } from '../../../shared/cases/changes.js';
import { caseOpener } from '../../../shared/cases/opener.js';
import type { CaseActor } from '../../../shared/cases/service.js';
import { refusal } from '../../support/problems.js';
import { answered, caseWorld, MONDAY_10H, TENANT } from './world.js';

/** A manager's changes to a case (PATCH /public/cases/{id}), over in-memory ports. */

const manager: CaseActor = { name: 'gerente@loja.example', scope: { stores: [3], groups: [] } };
const LATER = new Date(MONDAY_10H.getTime() + 3_600_000);

async function openedCase(id = 201, erased = false) {
  const world = caseWorld();
  world.transactions.set(id, { ...answered(id, 2, 'Fila enorme'), erased });
  await caseOpener(world.ports).openFromAnswer(TENANT, { transactionId: id, version: 1, now: MONDAY_10H });
  return { world, update: caseChanges(world.ports).update };
}

describe('changing a case', () => {
  it('moves open to in progress, noting the first contact, then resolves it with a root cause and a note', async () => {
    const { world, update } = await openedCase();

    const started = await update(TENANT, { id: 201, patch: { status: 'in_progress' }, actor: manager, expected: 1, now: MONDAY_10H });
    expect(started).toMatchObject({ status: 'in_progress', first_contact_at: MONDAY_10H.toISOString(), version: 2 });

    const resolved = await update(TENANT, {
      id: 201,
      patch: { status: 'resolved', root_cause: 'Atendimento', note: 'Liguei e resolvi' },
      actor: manager,
      expected: 2,
      now: LATER,
    });
    expect(resolved).toMatchObject({ status: 'resolved', root_cause: 'Atendimento', closed_at: LATER.toISOString(), version: 3 });
    expect(resolved.notes).toEqual([{ author: manager.name, at: LATER.toISOString(), text: 'Liguei e resolvi' }]);

    const stored = await world.cases.find(TENANT, 201);
    expect(stored).toMatchObject({ status: 'resolved', rootCause: 'Atendimento', version: 3 });
    expect(stored!.history.map((h) => [h.action, h.from ?? null, h.to ?? null])).toEqual([
      ['opened', null, null],
      ['status', 'open', 'in_progress'],
      ['status', 'in_progress', 'resolved'],
      ['note', null, null],
    ]);
    expect(world.events.published.map((p) => p.event.type)).toEqual(['case.opened', 'case.resolved']);
    expect(world.recoveries).toEqual([201]);
  });

  it('refuses a status outside the transitions, and any status once the case is closed, naming the field', async () => {
    const { world, update } = await openedCase();

    expect(
      await refusal(
        update(TENANT, { id: 201, patch: { status: 'resolved', root_cause: 'Preço', note: 'ok' }, actor: manager, expected: 1 }),
      ),
    ).toMatchObject({
      kind: 'validation',
      errors: [{ path: 'status', message: 'a case open cannot become resolved (it may become in_progress or closed_unresolved)' }],
    });
    await update(TENANT, { id: 201, patch: { status: 'closed_unresolved' }, actor: manager, expected: 1 });
    expect((await refusal(update(TENANT, { id: 201, patch: { status: 'open' }, actor: manager, expected: 2 }))).errors).toEqual([
      { path: 'status', message: 'a case closed_unresolved cannot become open (it is closed)' },
    ]);
    expect((await world.cases.find(TENANT, 201))!.status).toBe('closed_unresolved');
  });

  it("takes a resolution only with a note and one of the tenant's root causes", async () => {
    const { world, update } = await openedCase();
    await update(TENANT, { id: 201, patch: { status: 'in_progress' }, actor: manager, expected: 1 });

    expect((await refusal(update(TENANT, { id: 201, patch: { status: 'resolved' }, actor: manager, expected: 2 }))).errors).toEqual([
      { path: 'root_cause', message: 'is required to resolve a case' },
      { path: 'note', message: 'is required to resolve a case' },
    ]);
    expect(
      (
        await refusal(
          update(TENANT, { id: 201, patch: { status: 'resolved', root_cause: 'Azar', note: 'x' }, actor: manager, expected: 2 }),
        )
      ).errors,
    ).toEqual([{ path: 'root_cause', message: 'must be one of Atendimento, Produto, Preço, Prazo, Outro' }]);
    expect(await world.cases.find(TENANT, 201)).toMatchObject({ status: 'in_progress', version: 2 });
    expect(world.recoveries).toEqual([]);
  });

  it('writes one change per version read: a stale If-Match and the second of two changes from one read are refused (precondition-failed)', async () => {
    const { world, update } = await openedCase();

    const [first, second] = await Promise.allSettled([
      update(TENANT, { id: 201, patch: { note: 'Primeira' }, actor: manager, expected: 1 }),
      update(TENANT, { id: 201, patch: { note: 'Segunda' }, actor: manager, expected: 1 }),
    ]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { kind: 'precondition-failed' } });
    expect(await refusal(update(TENANT, { id: 201, patch: { note: 'Velha' }, actor: manager, expected: 1 }))).toMatchObject({
      kind: 'precondition-failed',
    });
    expect((await world.cases.find(TENANT, 201))!.notes.map((n) => n.text)).toEqual(['Primeira']);

    // Without a version (the form's `current`) the change applies to whatever the case is at.
    expect((await update(TENANT, { id: 201, patch: { note: 'Atual' }, actor: manager, expected: 'current' })).version).toBe(3);
  });

  it('gives a case to a user whose scope holds its store, and to no one else', async () => {
    const { world, update } = await openedCase();

    expect(
      (await refusal(update(TENANT, { id: 201, patch: { owner: 'outra@loja.example' }, actor: manager, expected: 1 }))).errors,
    ).toEqual([
      { path: 'owner', message: "must be null or the e-mail address of a user who signs in, enabled, whose scope holds the case's store" },
    ]);
    expect(
      (await refusal(update(TENANT, { id: 201, patch: { owner: 'ninguem@loja.example' }, actor: manager, expected: 1 }))).errors[0]!.path,
    ).toBe('owner');
    expect((await update(TENANT, { id: 201, patch: { owner: 'diretora@loja.example' }, actor: manager, expected: 1 })).owner).toBe(
      'diretora@loja.example',
    );
    expect((await world.cases.find(TENANT, 201))!.owner).toBe('diretora@loja.example');
  });

  it("takes no note on an erased customer's case, and hides a case outside the user's scope (not-found)", async () => {
    const { update } = await openedCase(202, true);

    expect((await refusal(update(TENANT, { id: 202, patch: { note: 'Liguei' }, actor: manager, expected: 1 }))).errors).toEqual([
      { path: 'note', message: 'the customer of this case was erased: it takes no notes' },
    ]);
    const elsewhere: CaseActor = { name: 'outra@loja.example', scope: { stores: [4], groups: [] } };
    expect(await refusal(update(TENANT, { id: 202, patch: { status: 'in_progress' }, actor: elsewhere, expected: 1 }))).toMatchObject({
      kind: 'not-found',
    });
    expect(await refusal(update(TENANT, { id: 202, patch: {}, actor: manager, expected: 1 }))).toMatchObject({ kind: 'validation' });
  });
});
