import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { ExportJob, type ExportJobStore, type ExportRun } from '../answers/export.js';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import { conditionHeld, db } from './dynamodb.js';

/** The export jobs: one item each, replaced by a new run unless a fresh one is running (one conditional PutItem). */
export const exportJobs: ExportJobStore = {
  async start(tenantId, job, { staleBefore, expiresAt }) {
    const { client, tableName } = db();
    const started = await conditionHeld(
      client.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...keys.answerExport(tenantId, job.id),
            [TABLE.entityAttribute]: 'ANSWER_EXPORT',
            ...job,
            [TABLE.ttlAttribute]: Math.ceil(expiresAt.getTime() / 1000),
          },
          ConditionExpression: 'attribute_not_exists(pk) OR #status <> :running OR startedAt < :stale',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':running': 'running', ':stale': staleBefore },
        }),
      ),
    );
    if (started) return { job, started };
    return { job: (await exportJobs.find(tenantId, job.id)) ?? job, started: false };
  },
  async find(tenantId, id) {
    const { client, tableName } = db();
    const { Item } = await client.send(
      new GetCommand({ TableName: tableName, Key: keys.answerExport(tenantId, id), ConsistentRead: true }),
    );
    return Item ? v.parse(ExportJob, Item) : undefined;
  },
  async progress(tenantId, run, rows) {
    await whileRunning(tenantId, run, { update: 'SET #rows = :rows', values: { ':rows': rows } });
  },
  async finish(tenantId, run, { rows, at }) {
    await whileRunning(tenantId, run, {
      update: 'SET #rows = :rows, #status = :done, finishedAt = :at',
      values: { ':rows': rows, ':done': 'done', ':at': at },
    });
  },
};

/** An update of the run that is running; of another run (a newer start) it changes nothing. */
async function whileRunning(
  tenantId: number,
  { id, run }: ExportRun,
  { update, values }: { update: string; values: Record<string, unknown> },
) {
  const { client, tableName } = db();
  await conditionHeld(
    client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.answerExport(tenantId, id),
        UpdateExpression: update,
        ConditionExpression: '#run = :run AND #status = :running',
        ExpressionAttributeNames: { '#run': 'run', '#status': 'status', '#rows': 'rows' },
        ExpressionAttributeValues: { ...values, ':run': run, ':running': 'running' },
      }),
    ),
  );
}
