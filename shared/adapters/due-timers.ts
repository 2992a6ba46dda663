import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { CaseDeadlineMessage } from '../cases/deadline-message.js';
import { RunMessage } from '../analytics/schedule.js';
import { CaseMessage } from '../cases/message.js';
import { DigestMessage } from '../digest/schema.js';
import { keys } from '../keys.js';
import { ScoreDropRun } from '../results/score-drop-schedule.js';
import { DispatchMessage } from '../surveys/dispatch.js';
import { TABLE } from '../table.js';
import type { DueStore, Timed, Timer, TimerKind } from '../timers/timers.js';
import { db, queryAll } from './dynamodb.js';

/**
 * The table's TTL removes a timer this long after its time: the release does not delete what it released (the
 * checkpoint keeps a minute from being read again). Two days is far past the release (10 minutes before the time)
 * and leaves a stopped release (alarmed after 3 failed runs in 5 minutes) two days to resume before a timer it has not
 * released can go; each day of it keeps about a day's timers stored (13 million items, ~5 GB, at 10 million sales a day).
 */
export const DUE_TTL_DAYS = 2;

/**
 * The partitions of one minute. At 10 million transactions a day with a peak hour at 10 times the average (1,157 a
 * second), a reminder for every one of them and a case for every answer (347 a second), one minute's partition would
 * take 1,504 writes a second, 150% of a partition's 1,000: 32 shards take 47 each (4.7%). The release reads the 32
 * of each minute in parallel: 32 Queries, 16 read units a minute when empty.
 */
export const DUE_SHARDS = 32;

/** What each kind of timer is, as the table keeps it: its message's schema and the sort key that names it. */
const KINDS = {
  surveyAttempt: {
    schema: DispatchMessage,
    sort: (m: DispatchMessage) => keys.dueAttempt(m.tenantId, m.transactionId, m.attemptId),
  },
  caseDeadline: {
    schema: CaseDeadlineMessage,
    sort: (m: CaseDeadlineMessage) => keys.dueCase(m.tenantId, m.caseId),
  },
  caseAlert: {
    schema: CaseMessage,
    sort: (m: CaseMessage) => keys.dueCaseAlert(m.tenantId, m.transactionId),
  },
  digest: {
    schema: DigestMessage,
    sort: (m: DigestMessage) => keys.dueDigest(m.tenantId, m.period, m.from),
  },
  scoreDrop: {
    schema: ScoreDropRun,
    sort: (m: ScoreDropRun) => keys.dueScoreDrop(m.tenantId, m.day),
  },
  analyticsDay: {
    schema: RunMessage,
    sort: (m: RunMessage) => keys.dueAnalytics(m.tenantId, m.day),
  },
} satisfies Record<TimerKind, unknown>;
/** The message a kind of timer carries. */
export type TimerMessage<K extends TimerKind> = v.InferOutput<(typeof KINDS)[K]['schema']>;
// The kind names the schema the message was parsed with, so it fits its own sort (TypeScript cannot pair the two).
const sortOf = (kind: TimerKind, message: Timed): string => (KINDS[kind].sort as (m: Timed) => string)(message);

/** The item key of a timer: its minute's shard is a hash of its sort key, so a timer put twice is one item. */
export function dueTimerKey(minute: string, kind: TimerKind, message: Timed): { pk: string; sk: string } {
  const sk = sortOf(kind, message);
  return { pk: keys.dueMinute(minute, keys.dueShard(sk, DUE_SHARDS)), sk };
}

/** The partitions the release reads for a minute: its shards, and the one partition of timers parked before them. */
const partitionsOf = (minute: string): string[] => [
  ...Array.from({ length: DUE_SHARDS }, (_, shard) => keys.dueMinute(minute, shard)),
  keys.dueMinuteUnsharded(minute),
];

async function put(minute: string, kind: TimerKind, message: Timed): Promise<void> {
  const { client, tableName } = db();
  const expiresAt = Math.floor(Date.parse(message.dueAt ?? `${minute}:00Z`) / 1000) + DUE_TTL_DAYS * 86_400;
  await client.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...dueTimerKey(minute, kind, message),
        [TABLE.entityAttribute]: 'DUE_TIMER',
        timer: kind,
        message,
        [TABLE.ttlAttribute]: expiresAt,
      },
    }),
  );
}

/** Every timer of a minute, read from its partitions in parallel. Items from before the shards are attempts. */
async function dueIn(minute: string): Promise<Timer[]> {
  const pages = await Promise.all(partitionsOf(minute).map((partition) => queryAll(db(), { partition })));
  return pages.flat().map((item) => {
    const kind = v.parse(v.optional(v.picklist(Object.keys(KINDS) as TimerKind[]), 'surveyAttempt'), item.timer);
    const message = v.parse(KINDS[kind].schema, item.message);
    return { kind, dueAt: message.dueAt, message };
  });
}

const checkpoint = {
  async checkpoint() {
    const { client, tableName } = db();
    const { Item } = await client.send(new GetCommand({ TableName: tableName, Key: keys.dueCheckpoint(), ConsistentRead: true }));
    return typeof Item?.minute === 'string' ? Item.minute : undefined;
  },
  async saveCheckpoint(minute: string) {
    const { client, tableName } = db();
    await client.send(
      new PutCommand({ TableName: tableName, Item: { ...keys.dueCheckpoint(), [TABLE.entityAttribute]: 'DUE_CHECKPOINT', minute } }),
    );
  },
};

/** Every timer by due minute, whatever it is for: what the release reads. */
export const dueTimers: DueStore<Timer> = {
  put: (minute, timer) => put(minute, timer.kind, timer.message),
  dueIn,
  ...checkpoint,
};

/** The timers of one kind, by due minute: where that kind is scheduled (the release reads them all, `dueTimers`). */
export function dueTimersOf<K extends TimerKind>(kind: K): DueStore<TimerMessage<K>> {
  return {
    put: (minute, message) => put(minute, kind, message),
    dueIn: async (minute) => (await dueIn(minute)).filter((timer) => timer.kind === kind).map((timer) => timer.message as TimerMessage<K>),
    ...checkpoint,
  };
}
