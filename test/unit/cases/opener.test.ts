import { describe, expect, it } from 'vitest';
import { casePagePath } from '../../../shared/cases/alert.js';
import { caseOpener } from '../../../shared/cases/opener.js';
import { AnswerNotVisibleYet } from '../../../shared/cases/service.js';
import { answered, caseWorld, MONDAY_10H, settings, TENANT } from './world.js';

/** Opening cases from answers (the case queue's consumer), over in-memory ports. */

describe('opening a case from an answer', () => {
  it('opens one case for a detractor, unassigned when two people see its store, due in 24 business hours, alerted and announced', async () => {
    const world = caseWorld();
    world.transactions.set(101, answered(101, 3, 'Demorou demais'));

    expect(await caseOpener(world.ports).openFromAnswer(TENANT, { transactionId: 101, version: 1, now: MONDAY_10H })).toBe('opened');

    const stored = await world.cases.find(TENANT, 101);
    expect(stored).toMatchObject({
      id: 101,
      status: 'open',
      score: 3,
      comment: 'Demorou demais',
      customerName: 'Ana Souza',
      owner: null,
      openedAt: MONDAY_10H.toISOString(),
      // Monday 10:00 in São Paulo: 8 hours on Monday, 9 on Tuesday, 7 on Wednesday: 16:00 local.
      dueAt: '2026-11-25T19:00:00.000Z',
      overdue: false,
      alertedAt: MONDAY_10H.toISOString(),
      version: 1,
    });
    expect(world.emails.map((e) => e.to)).toEqual([['diretora@loja.example', 'gerente@loja.example']]);
    expect(world.emails[0]!.text).toContain('https://app.example');
    expect(world.events.published.map((p) => p.event.type)).toEqual(['case.opened']);
    expect(world.deadlines.scheduled).toEqual([
      { message: { version: 1, tenantId: TENANT, caseId: 101, dueAt: stored!.dueAt }, dueAt: stored!.dueAt },
    ]);
  });

  it('opens none for a promoter or a passive, and none for a transaction without an answer', async () => {
    const world = caseWorld();
    world.transactions.set(102, answered(102, 10, 'Ótimo'));
    world.transactions.set(103, answered(103, 7, null));
    const opener = caseOpener(world.ports);

    expect(await opener.openFromAnswer(TENANT, { transactionId: 102, version: 1, now: MONDAY_10H })).toBe('none');
    expect(await opener.openFromAnswer(TENANT, { transactionId: 103, version: 1, now: MONDAY_10H })).toBe('none');
    expect(await opener.openFromAnswer(TENANT, { transactionId: 104, version: 1, now: MONDAY_10H })).toBe('none');
    expect(world.cases.rows.size).toBe(0);
    expect([world.emails, world.events.published, world.deadlines.scheduled]).toEqual([[], [], []]);
  });

  it('opens one case however often the answer is delivered, alerts once and announces it under one event id', async () => {
    const world = caseWorld();
    world.transactions.set(105, answered(105, 0, 'Péssimo'));
    const opener = caseOpener(world.ports);

    expect(await opener.openFromAnswer(TENANT, { transactionId: 105, version: 1, now: MONDAY_10H })).toBe('opened');
    expect(await opener.openFromAnswer(TENANT, { transactionId: 105, version: 1, now: new Date(MONDAY_10H.getTime() + 60_000) })).toBe(
      'unchanged',
    );

    expect(world.cases.rows.size).toBe(1);
    expect((await world.cases.find(TENANT, 105))!.version).toBe(1);
    expect(world.emails).toHaveLength(1);
    const ids = world.events.published.map((p) => p.event.id);
    expect(ids).toHaveLength(2);
    expect(new Set(ids).size).toBe(1);
  });

  it('shows a corrected answer on the case it opened, never a second case', async () => {
    const world = caseWorld();
    world.transactions.set(106, answered(106, 5, 'Ruim'));
    const opener = caseOpener(world.ports);
    await opener.openFromAnswer(TENANT, { transactionId: 106, version: 1, now: MONDAY_10H });

    world.transactions.set(106, answered(106, 1, 'Muito ruim', 1, 2));
    expect(await opener.openFromAnswer(TENANT, { transactionId: 106, version: 2, now: MONDAY_10H })).toBe('rescored');

    const stored = await world.cases.find(TENANT, 106);
    expect(stored).toMatchObject({ score: 1, comment: 'Muito ruim', answerVersion: 2, version: 2 });
    expect(stored!.history.map((h) => h.action)).toEqual(['opened', 'rescored']);
    expect(world.cases.rows.size).toBe(1);
    expect(world.emails).toHaveLength(1);
  });

  it('is retried while the answer the message announces is not readable yet', async () => {
    const world = caseWorld();
    world.transactions.set(107, answered(107, 2, null));

    await expect(
      caseOpener(world.ports).openFromAnswer(TENANT, { transactionId: 107, version: 2, now: MONDAY_10H }),
    ).rejects.toBeInstanceOf(AnswerNotVisibleYet);
    expect(world.cases.rows.size).toBe(0);
  });

  it('gives the alert back when the provider refused it, so that the retry sends it', async () => {
    const options = { refuseEmail: true };
    const world = caseWorld(settings(), options);
    world.transactions.set(108, answered(108, 4, null));
    const opener = caseOpener(world.ports);

    await expect(opener.openFromAnswer(TENANT, { transactionId: 108, version: 1, now: MONDAY_10H })).rejects.toThrow(
      'The alert was not sent',
    );
    expect((await world.cases.find(TENANT, 108))!.alertedAt).toBeNull();

    options.refuseEmail = false;
    expect(await opener.openFromAnswer(TENANT, { transactionId: 108, version: 1, now: MONDAY_10H })).toBe('unchanged');
    expect(world.emails).toHaveLength(1);
  });

  it("holds the WhatsApp alert through the tenant's quiet hours and sends it once to each manager with a phone", async () => {
    const world = caseWorld();
    world.transactions.set(109, answered(109, 2, 'Atrasou', 2));
    const opener = caseOpener(world.ports);
    // Monday 22:00 in São Paulo: inside the default quiet hours (21:00 to 08:00).
    const night = new Date('2026-11-24T01:00:00.000Z');

    expect(await opener.openFromAnswer(TENANT, { transactionId: 109, version: 1, now: night })).toBe('opened');
    expect(world.whatsapps).toEqual([]);
    expect(world.quietAlerts.scheduled.map((t) => [t.message.alert, t.dueAt])).toEqual([['whatsapp', '2026-11-24T11:00:00.000Z']]);
    expect(world.emails).toHaveLength(1);

    const morning = new Date('2026-11-24T11:00:00.000Z');
    expect(await opener.alertHeld(TENANT, 109, morning)).toBe('sent');
    expect(await opener.alertHeld(TENANT, 109, morning)).toBe('sent');
    expect(world.whatsapps).toEqual([
      {
        to: '+5511988887777',
        phoneNumberId: 'pn-1',
        template: 'case_alert',
        language: 'pt_BR',
        parameters: ['2', 'Loja 3', `https://app.example${casePagePath(109)}`],
      },
    ]);
  });

  it("keeps no customer's name or words on the case of an erased customer's answer", async () => {
    const world = caseWorld();
    world.transactions.set(110, { ...answered(110, 1, 'Meu CPF é 123'), erased: true });

    expect(await caseOpener(world.ports).openFromAnswer(TENANT, { transactionId: 110, version: 1, now: MONDAY_10H })).toBe('opened');
    expect(await world.cases.find(TENANT, 110)).toMatchObject({ customerName: null, comment: null, erased: true });
  });
});
