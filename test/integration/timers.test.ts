import { randomInt } from 'node:crypto';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { db, queryAll } from '../../shared/adapters/dynamodb.js';
import { DUE_SHARDS, DUE_TTL_DAYS, dueTimers, dueTimersOf } from '../../shared/adapters/due-timers.js';
import { sendTimers } from '../../shared/adapters/wiring/timers.js';
import type { CaseDeadlineMessage } from '../../shared/cases/deadline-message.js';
import { keys } from '../../shared/keys.js';
import type { DispatchMessage } from '../../shared/surveys/dispatch.js';
import { TABLE } from '../../shared/table.js';
import { dueScheduler, minuteOf, releaseDue, type DelayedSend, type DueStore, type Timed, type Timer } from '../../shared/timers/timers.js';
import { usePrivateQueue } from '../support/queues.js';

/**
 * Timers in the real table, released onto the real (private) queues, with a clock the test holds: minutes years ahead,
 * and a checkpoint of the test's own (the table's belongs to the local stack's release), so nothing else touches them.
 */

const dispatchQueue = usePrivateQueue('surveyDispatch');
const deadlineQueue = usePrivateQueue('caseDeadlines');
const minutes = (from: Date, n: number) => new Date(from.getTime() + n * 60_000);
/** A minute of its own for each test: a random one in 2031. */
const aMinute = () => new Date(Date.parse('2031-01-01T00:00:00Z') + randomInt(0, 500_000) * 60_000);

/** The table's timers with a checkpoint of the test's own, starting just before `minute`. */
function ownCheckpoint<M extends Timed>(store: DueStore<M>, minute: Date): DueStore<M> {
  let checkpoint: string | undefined = minuteOf(minutes(minute, -1));
  return { ...store, checkpoint: async () => checkpoint, saveCheckpoint: async (m) => void (checkpoint = m) };
}

const attempt = (tenantId: number, transactionId: number): DispatchMessage => ({
  version: 1,
  tenantId,
  transactionId,
  attemptId: 2,
  journeyId: 4,
  journey: 'lembrete',
  channel: 'email',
  createdAt: '2031-01-01T00:00:00.000Z',
});
const deadline = (tenantId: number, caseId: number): CaseDeadlineMessage => ({ version: 1, tenantId, caseId });

/** Every timer item of a minute, as stored. */
async function itemsOf(minute: Date) {
  const partitions = [
    ...Array.from({ length: DUE_SHARDS }, (_, shard) => keys.dueMinute(minuteOf(minute), shard)),
    keys.dueMinuteUnsharded(minuteOf(minute)),
  ];
  return (await Promise.all(partitions.map((partition) => queryAll(db(), { partition, consistent: true })))).flat();
}

/** How many items each partition of a minute holds: its shards, then its one pre-shard partition. */
async function itemsPerPartition(minute: Date): Promise<number[]> {
  const { client, tableName } = db();
  const partitions = [
    ...Array.from({ length: DUE_SHARDS }, (_, shard) => keys.dueMinute(minuteOf(minute), shard)),
    keys.dueMinuteUnsharded(minuteOf(minute)),
  ];
  return Promise.all(
    partitions.map(
      async (pk) =>
        (
          await client.send(
            new QueryCommand({
              TableName: tableName,
              KeyConditionExpression: '#pk = :pk',
              ExpressionAttributeNames: { '#pk': TABLE.partitionKey },
              ExpressionAttributeValues: { ':pk': pk },
              Select: 'COUNT',
              ConsistentRead: true,
            }),
          )
        ).Count ?? 0,
    ),
  );
}

const attempts = dueScheduler(dueTimersOf('surveyAttempt'), sendTimersOf<DispatchMessage>('surveyAttempt'));
const deadlines = dueScheduler(dueTimersOf('caseDeadline'), sendTimersOf<CaseDeadlineMessage>('caseDeadline'));
/** Sends of one kind, through the release's own routing. */
function sendTimersOf<M extends Timed>(kind: 'surveyAttempt' | 'caseDeadline'): DelayedSend<M> {
  return (messages) => sendTimers(messages.map(({ message, delaySeconds }) => ({ message: { kind, message }, delaySeconds })));
}

describe('timers', () => {
  it('spreads a busy minute over its shards, and releases each timer to the queue its kind names, once', async () => {
    const minute = aMinute();
    const now = minutes(minute, -120);
    const tenantId = randomInt(1_000_000, 2_000_000);
    // Prepare: 320 reminders and 80 case deadlines due in the same minute, each scheduled twice (a redelivery).
    const due = (i: number) => new Date(minute.getTime() + (i % 60) * 1000);
    for (let round = 0; round < 2; round++)
      await Promise.all([
        ...Array.from({ length: 320 }, (_, i) => attempts.schedule(attempt(tenantId, i + 1), due(i), now)),
        ...Array.from({ length: 80 }, (_, i) => deadlines.schedule(deadline(tenantId, i + 1), due(i), now)),
      ]);

    // Assess: 400 items, none in the pre-shard partition; every shard holds some, none more than twice its share.
    const counts = await itemsPerPartition(minute);
    expect(counts.reduce((a, b) => a + b)).toBe(400);
    expect(counts.at(-1)).toBe(0);
    expect(Math.min(...counts.slice(0, -1))).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThanOrEqual((2 * 400) / DUE_SHARDS);

    // Act: the release, a minute after they fell due.
    expect(await releaseDue(ownCheckpoint(dueTimers, minute), sendTimers, minutes(minute, 1))).toMatchObject({ released: 400 });

    const [dispatched, fired] = [await dispatchQueue.drain(), await deadlineQueue.drain()];
    expect(dispatched.map((m) => m.transactionId).sort((a, b) => Number(a) - Number(b))).toEqual(
      Array.from({ length: 320 }, (_, i) => i + 1),
    );
    expect(dispatched[0]).toMatchObject({ tenantId, attemptId: 2, channel: 'email', dueAt: expect.stringMatching(/^2031-/) });
    expect(fired.map((m) => m.caseId).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 80 }, (_, i) => i + 1));
    expect(fired[0]).toEqual({ version: 1, tenantId, caseId: expect.any(Number), dueAt: expect.stringMatching(/^2031-/) });

    // The release deletes nothing: every timer stays, until the table's TTL, DUE_TTL_DAYS after its due time.
    const stored = await itemsOf(minute);
    expect(stored).toHaveLength(400);
    for (const item of stored)
      expect(item[TABLE.ttlAttribute]).toBe(Date.parse(String((item.message as Timed).dueAt)) / 1000 + DUE_TTL_DAYS * 86_400);
    expect(DUE_TTL_DAYS).toBeGreaterThanOrEqual(1);
  });

  it('releases a minute once though its timers stay: the checkpoint moved past it', async () => {
    const minute = aMinute();
    const tenantId = randomInt(1_000_000, 2_000_000);
    for (let i = 1; i <= 30; i++) await attempts.schedule(attempt(tenantId, i), minutes(minute, 0), minutes(minute, -120));
    const store = ownCheckpoint(dueTimers, minute);
    expect(await releaseDue(store, sendTimers, minutes(minute, 1))).toMatchObject({ released: 30 });
    expect(await dispatchQueue.drain()).toHaveLength(30);
    expect(await releaseDue(store, sendTimers, minutes(minute, 2))).toMatchObject({ released: 0 });
    expect(await dispatchQueue.drain()).toEqual([]);
    expect(await itemsOf(minute)).toHaveLength(30);
  });

  it('sends a minute again when the release stops before its checkpoint moves, and not a third time', async () => {
    // What the consumers do with the second copy: test/integration/survey-delivery.test.ts ('sends once when the
    // message is redelivered...') and test/integration/case-deadlines.test.ts ('...delivered twice at once').
    const minute = aMinute();
    const tenantId = randomInt(1_000_000, 2_000_000);
    for (let i = 1; i <= 5; i++) await deadlines.schedule(deadline(tenantId, i), minutes(minute, 0), minutes(minute, -120));
    const store = ownCheckpoint(dueTimers, minute);
    let crash = true;
    const crashing: DueStore<Timer> = {
      ...store,
      saveCheckpoint: async (m) => {
        if (crash) throw new Error('stopped before the checkpoint');
        await store.saveCheckpoint(m);
      },
    };
    await expect(releaseDue(crashing, sendTimers, minutes(minute, 1))).rejects.toThrow('stopped before the checkpoint');
    expect((await deadlineQueue.drain()).map((m) => m.caseId).sort()).toEqual([1, 2, 3, 4, 5]);
    crash = false;
    expect(await releaseDue(crashing, sendTimers, minutes(minute, 1))).toMatchObject({ released: 5 });
    expect((await deadlineQueue.drain()).map((m) => m.caseId).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(await releaseDue(crashing, sendTimers, minutes(minute, 2))).toMatchObject({ released: 0 });
    expect(await deadlineQueue.drain()).toEqual([]);
  });

  it('still releases an attempt parked in the one partition of its minute before the shards', async () => {
    const minute = aMinute();
    const message = { ...attempt(7, 4242), dueAt: minute.toISOString() };
    await db().client.send(
      new PutCommand({
        TableName: db().tableName,
        Item: {
          [TABLE.partitionKey]: keys.dueMinuteUnsharded(minuteOf(minute)),
          [TABLE.sortKey]: keys.dueAttempt(7, 4242, 2),
          [TABLE.entityAttribute]: 'DUE_ATTEMPT',
          message,
        },
      }),
    );
    expect(await releaseDue(ownCheckpoint(dueTimers, minute), sendTimers, minutes(minute, 1))).toMatchObject({ released: 1 });
    expect(await dispatchQueue.drain()).toEqual([message]);
    expect(await deadlineQueue.drain()).toEqual([]);
  });
});
