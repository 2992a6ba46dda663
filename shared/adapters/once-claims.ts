import { DeleteCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { TABLE } from '../table.js';
import { conditionHeld, db } from './dynamodb.js';

type Key = { pk: string; sk: string };

/** How one kind of claim is stored: its entity, when a claim is a crash's, and what its end is called. */
export interface OnceClaimKind {
  entity: string;
  /** A claim older than this is a crash's and may be taken again. */
  staleSeconds: number;
  /** The state, and its time's attribute, of a claim whose work is done (`sent`/`sentAt`, `done`/`doneAt`). */
  finished: { state: string; at: string };
}

/**
 * Work done once however often it is asked for (a digest's e-mail, a case's escalation, a day's export): an item put
 * conditionally before the work. The put fails while another run holds the claim and once the work is finished; a
 * claim older than `staleSeconds` is a crash's and is taken again. A run that fails gives its claim back (only its
 * own: the same claim time), so that a retry goes ahead at once.
 */
export function onceClaims({ entity, staleSeconds, finished }: OnceClaimKind) {
  return {
    /** Whether this run holds the claim now; `expiresAt` (epoch seconds) lets the table's TTL remove it later. */
    claim(key: Key, now: Date, expiresAt?: number): Promise<boolean> {
      const { client, tableName } = db();
      return conditionHeld(
        client.send(
          new PutCommand({
            TableName: tableName,
            Item: {
              ...key,
              [TABLE.entityAttribute]: entity,
              state: 'claimed',
              claimedAt: now.toISOString(),
              ...(expiresAt !== undefined ? { [TABLE.ttlAttribute]: expiresAt } : {}),
            },
            ConditionExpression: 'attribute_not_exists(#pk) OR (#state = :claimed AND claimedAt < :stale)',
            ExpressionAttributeNames: { '#pk': TABLE.partitionKey, '#state': 'state' },
            ExpressionAttributeValues: {
              ':claimed': 'claimed',
              ':stale': new Date(now.getTime() - staleSeconds * 1000).toISOString(),
            },
          }),
        ),
      );
    },

    /** The work is done: never claimed again. `details` are kept on the item (an escalation's rule and recipients). */
    async finish(key: Key, now: Date, details: Record<string, unknown> = {}): Promise<void> {
      const names = Object.keys(details);
      const { client, tableName } = db();
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: key,
          UpdateExpression: `SET #state = :finished, #at = :at${names.map((_, i) => `, #d${i} = :d${i}`).join('')}`,
          ExpressionAttributeNames: {
            '#state': 'state',
            '#at': finished.at,
            ...Object.fromEntries(names.map((name, i) => [`#d${i}`, name])),
          },
          ExpressionAttributeValues: {
            ':finished': finished.state,
            ':at': now.toISOString(),
            ...Object.fromEntries(names.map((name, i) => [`:d${i}`, details[name]])),
          },
        }),
      );
    },

    /** Gives back the claim this run took at `now`; someone else's claim since, or finished work, stays. */
    async release(key: Key, now: Date): Promise<void> {
      const { client, tableName } = db();
      await conditionHeld(
        client.send(
          new DeleteCommand({
            TableName: tableName,
            Key: key,
            ConditionExpression: '#state = :claimed AND claimedAt = :at',
            ExpressionAttributeNames: { '#state': 'state' },
            ExpressionAttributeValues: { ':claimed': 'claimed', ':at': now.toISOString() },
          }),
        ),
      );
    },
  };
}
