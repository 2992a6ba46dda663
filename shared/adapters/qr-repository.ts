import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../keys.js';
import type { AnswerWindow, QrStore } from '../in-store/ports.js';
import { TABLE } from '../table.js';
import { batchGet, db, isConditionFailure } from './dynamodb.js';
import { QR_GENERATION } from './settings-repository.js';
import { raiseConfigVersion } from './tenant-repository.js';

const RATE = 'QR_RATE';

export const qrStore: QrStore = {
  /** One atomic update: two rotations at once raise the generation twice, each answering its own. */
  async rotateGeneration(tenantId) {
    const { client, tableName } = db();
    const { Attributes } = await client.send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: keys.config(tenantId), sk: keys.qrGeneration },
        // Never rotated: generation 1 signs, so the first rotation makes it 2.
        UpdateExpression: 'SET #entity = :entity, generation = if_not_exists(generation, :one) + :one',
        ExpressionAttributeNames: { '#entity': TABLE.entityAttribute },
        ExpressionAttributeValues: { ':entity': QR_GENERATION, ':one': 1 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    // Every function caches the configuration by its version: moving it retires the old generation at once.
    await raiseConfigVersion(tenantId);
    return Number(Attributes!.generation);
  },

  /**
   * Counts one answer in its window unless the window holds `limit` already: one conditional UpdateItem on an item of
   * its own (no read first, no scan), so 200 answers at once record at most `limit`. TTL removes the item after.
   */
  async countAnswer({ tenantId, tokenHash, addressHash, window, endsAt }: AnswerWindow, limit) {
    const { client, tableName } = db();
    try {
      await client.send(
        new UpdateCommand({
          TableName: tableName,
          Key: keys.qrAnswers(tenantId, { tokenHash, addressHash, window }),
          UpdateExpression: 'ADD answers :one SET #ttl = :end, #entity = :entity',
          ConditionExpression: 'attribute_not_exists(answers) OR answers < :limit',
          ExpressionAttributeNames: { '#ttl': TABLE.ttlAttribute, '#entity': TABLE.entityAttribute },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':end': Math.ceil(endsAt / 1000), ':entity': RATE },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  },

  async counted(windows) {
    const keyOf = (w: (typeof windows)[number]) => keys.qrAnswers(w.tenantId, w);
    const items = await batchGet(db(), windows.map(keyOf), { projection: ['pk', 'sk', 'answers'] });
    const found = new Map(items.map((item) => [`${String(item.pk)}\u0000${String(item.sk)}`, Number(item.answers ?? 0)]));
    return windows.map((w) => {
      const key = keyOf(w);
      return found.get(`${key.pk}\u0000${key.sk}`) ?? 0;
    });
  },
};
