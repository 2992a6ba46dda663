import { describe, expect, it } from 'vitest';
import { nextAttempt, quietUntil, surveyAsSeen } from '../../shared/surveys/attempts.js';
import { heldByQuietHours } from '../../shared/channels.js';
import type { PlannedAttempt } from '../../shared/surveys/ports.js';
import { dueScheduler, minuteOf, releaseDue, type DueStore } from '../../shared/surveys/scheduler.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import type { Transaction } from '../../shared/transaction-record.js';

/** The rules of attempts over time, with a clock the test holds. */

const at = (iso: string) => new Date(iso);
const SAO_PAULO = 'America/Sao_Paulo';
const SP = { timeZone: SAO_PAULO, from: '21:00', to: '08:00' };

describe('quiet hours', () => {
  it('hold from 21:00 to 08:00 in São Paulo by default, across midnight, and end on the minute', () => {
    expect(quietUntil(undefined, at('2026-11-23T00:30:00Z'), SAO_PAULO)).toEqual(at('2026-11-23T11:00:00Z')); // 21:30 local
    expect(quietUntil(undefined, at('2026-11-23T10:59:30Z'), SAO_PAULO)).toEqual(at('2026-11-23T11:00:00Z')); // 07:59 local
    expect(quietUntil(undefined, at('2026-11-23T11:00:00Z'), SAO_PAULO)).toBeUndefined(); // 08:00 local
    expect(quietUntil(undefined, at('2026-11-23T23:59:00Z'), SAO_PAULO)).toBeUndefined(); // 20:59 local
    expect(quietUntil(SP, at('2026-11-24T00:00:00Z'), SAO_PAULO)).toEqual(at('2026-11-24T11:00:00Z')); // 21:00 local
  });

  it('follow the tenant: its zone and window, or none', () => {
    expect(quietUntil(null, at('2026-11-23T03:00:00Z'), SAO_PAULO)).toBeUndefined();
    const lunch = { timeZone: 'Europe/Lisbon', from: '12:00', to: '14:00' };
    expect(quietUntil(lunch, at('2026-07-01T11:30:00Z'), SAO_PAULO)).toEqual(at('2026-07-01T13:00:00Z')); // 12:30 summer time
    expect(quietUntil(lunch, at('2026-07-01T13:00:00Z'), SAO_PAULO)).toBeUndefined();
  });

  it("count in the tenant's time zone unless the window names its own", () => {
    // 21:30 in São Paulo is 20:30 in Manaus: outside a Manaus tenant's default window, which holds until 08:00 there.
    expect(quietUntil(undefined, at('2026-11-23T00:30:00Z'), 'America/Manaus')).toBeUndefined();
    expect(quietUntil(undefined, at('2026-11-23T01:30:00Z'), 'America/Manaus')).toEqual(at('2026-11-23T12:00:00Z'));
    expect(quietUntil({ from: '21:00', to: '08:00' }, at('2026-11-23T01:30:00Z'), 'America/Manaus')).toEqual(at('2026-11-23T12:00:00Z'));
    expect(quietUntil(SP, at('2026-11-23T00:30:00Z'), 'America/Manaus')).toEqual(at('2026-11-23T11:00:00Z'));
  });

  it('hold every channel but e-mail', () => {
    expect(['whatsapp', 'sms', 'ura', 'email'].map((c) => heldByQuietHours(c as never))).toEqual([true, true, true, false]);
  });
});

describe('the next attempt', () => {
  const plan: PlannedAttempt[] = [
    { attemptId: 1, channel: 'whatsapp', afterMinutes: 0, status: 'sent' },
    { attemptId: 2, channel: 'sms', afterMinutes: 30, status: 'skipped' },
    { attemptId: 3, channel: 'email', afterMinutes: 2880, status: 'pending' },
  ];
  const sent = at('2026-11-23T15:00:00Z');

  it('is the first one after, not skipped, its wait after the one sent', () => {
    expect(nextAttempt({ plan, current: 1, from: sent })).toEqual({ attemptId: 3, channel: 'email', dueAt: at('2026-11-25T15:00:00Z') });
  });

  it('goes at once when the one before could not reach the customer; there is none after the last', () => {
    expect(nextAttempt({ plan, current: 1, from: sent, immediately: true })?.dueAt).toEqual(sent);
    expect(nextAttempt({ plan, current: 3, from: sent })).toBeUndefined();
  });
});

describe('a survey as seen', () => {
  const transaction = (survey: Partial<Transaction['survey']>): Transaction =>
    ({
      survey: { status: 'sent', reason: null, attempt_id: 1, channel: 'whatsapp', expires_at: '2026-11-30T15:00:00.000Z', ...survey },
      attempts: [
        { attempt_id: 1, channel: 'whatsapp', status: 'sent', due_at: '2026-11-23T15:00:00.000Z' },
        { attempt_id: 2, channel: 'email', status: 'scheduled', due_at: '2026-11-25T15:00:00.000Z' },
      ],
    }) as Transaction;

  it('expires once its links lapse unanswered, cancelling what had not gone', () => {
    const seen = surveyAsSeen(transaction({}), at('2026-11-30T15:00:00Z'));
    expect(seen.survey.status).toBe('expired');
    expect(seen.attempts.map((a) => a.status)).toEqual(['sent', 'cancelled']);
    expect(surveyAsSeen(transaction({}), at('2026-11-30T14:59:59Z')).survey.status).toBe('sent');
  });

  it('with its contact gone (customer erased, copies expired): not sent if nothing went, and nothing more goes', () => {
    const unsent = surveyAsSeen(transaction({ status: 'scheduled', expires_at: undefined }), at('2026-11-24T00:00:00Z'), true);
    expect(unsent.survey).toMatchObject({ status: 'not_sent', reason: 'no_contact' });
    const sentOnce = surveyAsSeen(transaction({}), at('2026-11-24T00:00:00Z'), true);
    expect(sentOnce.survey.status).toBe('sent');
    expect(sentOnce.attempts.map((a) => a.status)).toEqual(['sent', 'cancelled']);
  });

  it('answered or opted out, nothing more goes', () => {
    expect(surveyAsSeen(transaction({ status: 'answered' }), at('2026-12-30T00:00:00Z')).survey.status).toBe('answered');
    expect(surveyAsSeen(transaction({ status: 'answered' }), at('2026-11-24T00:00:00Z')).attempts[1]!.status).toBe('cancelled');
    expect(surveyAsSeen(transaction({ status: 'failed', reason: 'opted_out' }), at('2026-11-24T00:00:00Z')).attempts[1]!.status).toBe(
      'cancelled',
    );
  });
});

describe('the scheduler', () => {
  const message = (transactionId: number): DispatchMessage => ({
    version: 1,
    tenantId: 1,
    transactionId,
    attemptId: 2,
    journeyId: 4,
    journey: 'lembrete',
    channel: 'email',
    createdAt: '2026-11-23T15:00:00.000Z',
  });
  function memoryDue(): DueStore & { minutes: Map<string, Map<string, DispatchMessage>>; saved: string[] } {
    const minutes = new Map<string, Map<string, DispatchMessage>>();
    const saved: string[] = [];
    return {
      minutes,
      saved,
      put: async (minute, m) => {
        minutes.set(minute, (minutes.get(minute) ?? new Map()).set(String(m.transactionId), m));
      },
      dueIn: async (minute) => [...(minutes.get(minute) ?? new Map<string, DispatchMessage>()).values()],
      checkpoint: async () => saved.at(-1),
      saveCheckpoint: async (minute) => {
        saved.push(minute);
      },
    };
  }

  it('queues what is due within 15 minutes, delayed; keeps what is later in its minute', async () => {
    const due = memoryDue();
    const queued: { message: DispatchMessage; delaySeconds: number }[] = [];
    const scheduler = dueScheduler(due, async (m) => (queued.push(...m), []));
    const now = at('2026-11-23T15:00:00Z');
    await scheduler.schedule(message(1), at('2026-11-23T15:15:00Z'), now);
    await scheduler.schedule(message(2), at('2026-11-23T15:15:01Z'), now);
    expect(queued).toEqual([{ message: { ...message(1), dueAt: '2026-11-23T15:15:00.000Z' }, delaySeconds: 900 }]);
    expect([...due.minutes.keys()]).toEqual(['2026-11-23T15:15']);
  });

  it('releases each minute once, up to ten minutes ahead, each message delayed to its second', async () => {
    const due = memoryDue();
    const queued: { message: DispatchMessage; delaySeconds: number }[] = [];
    const send = async (m: typeof queued) => (queued.push(...m), []);
    await due.saveCheckpoint('2026-11-23T14:59');
    await due.put('2026-11-23T15:20', { ...message(3), dueAt: '2026-11-23T15:20:30.000Z' });
    expect((await releaseDue(due, send, at('2026-11-23T15:09:00Z'))).released).toBe(0);
    expect(due.saved.at(-1)).toBe('2026-11-23T15:19');
    expect(await releaseDue(due, send, at('2026-11-23T15:10:00Z'))).toEqual({ minutes: 1, released: 1 });
    expect(queued).toEqual([{ message: expect.objectContaining({ transactionId: 3 }), delaySeconds: 630 }]);
    expect(await releaseDue(due, send, at('2026-11-23T15:10:20Z'))).toEqual({ minutes: 0, released: 0 });
    expect(minuteOf(at('2026-11-23T15:10:59Z'))).toBe('2026-11-23T15:10');
  });
});
