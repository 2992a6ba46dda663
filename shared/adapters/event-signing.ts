import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import { TABLE } from '../table.js';
import type { SigningGenerations } from '../events/signature.js';
import { db, isConditionFailure } from './dynamodb.js';
import { SIGNING, signingOf } from './settings-repository.js';

/** One atomic update: two rotations at once raise the generation twice, each answering its own. */
export async function rotateSigning(
  tenantId: number,
  endpoint: string,
  { previousUntil, now }: { previousUntil: string; now: string },
): Promise<SigningGenerations | undefined> {
  const { client, tableName } = db();
  // A rotation with an overlap waits for the last one's to end (else the generation receivers hold stops at once); a
  // hard cutover (no overlap) is taken whenever.
  const overlap = previousUntil > now;
  try {
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: keys.config(tenantId), sk: keys.webhookSigning(endpoint) },
        UpdateExpression:
          'SET #entity = :entity, endpoint = :endpoint, previousGeneration = if_not_exists(#current, :one), #current = if_not_exists(#current, :one) + :one, previousUntil = :until',
        ...(overlap ? { ConditionExpression: 'attribute_not_exists(previousUntil) OR previousUntil <= :now' } : {}),
        ExpressionAttributeNames: { '#entity': TABLE.entityAttribute, '#current': 'current' },
        ExpressionAttributeValues: {
          ':entity': SIGNING,
          ':endpoint': endpoint,
          ':one': 1,
          ':until': previousUntil,
          ...(overlap ? { ':now': now } : {}),
        },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return signingOf(Attributes!);
  } catch (error) {
    if (isConditionFailure(error)) return undefined;
    throw error;
  }
}
